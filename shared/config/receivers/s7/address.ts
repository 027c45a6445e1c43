/**
 * S7 addresses as the S7 tools people use write them (docs/s7.md, "Addresses"): `DB1,REAL0`,
 * `DB1,X6.0`, `DB1,S20.16`, `MW10`, `M0.1`, `IB3`, `Q0.1`. Pure; the rules, the console's hover and
 * the agent's read plan share it. STEP 7's absolute form (`DB1.DBD0`) is recognised only to say which
 * typed form to write instead: it carries no type, so the agent could not know how to decode it.
 */

export const S7_AREAS = ['DB', 'M', 'I', 'Q'] as const;
export const S7_TYPES = ['X', 'BYTE', 'CHAR', 'INT', 'WORD', 'DINT', 'DWORD', 'REAL', 'STRING'] as const;
export type S7Area = (typeof S7_AREAS)[number];
export type S7Type = (typeof S7_TYPES)[number];

/** The last byte offset an address may name (S7 addresses are 3-byte bit addresses; a DB of absolute access holds at most 64 KB). */
export const MAX_BYTE_OFFSET = 65535;
/** The longest S7 STRING (its header keeps the length in one byte). */
export const MAX_STRING_LENGTH = 254;

export interface S7Address {
  area: S7Area;
  /** The data block number; 0 for the M, I and Q areas. */
  db: number;
  type: S7Type;
  /** The first byte. */
  byte: number;
  /** With X: the bit of that byte, 0..7. */
  bit?: number | undefined;
  /** With STRING: its declared maximum length (characters). */
  length?: number | undefined;
}

export type ParsedAddress = { address: S7Address; problem?: undefined } | { address?: undefined; problem: string };

const SIZE: Record<Exclude<S7Type, 'STRING'>, number> = { X: 1, BYTE: 1, CHAR: 1, INT: 2, WORD: 2, DINT: 4, DWORD: 4, REAL: 4 };
/** The short type letters of the S7 tools, as accepted in a DB address. */
const DB_TYPE: Record<string, S7Type> = { X: 'X', B: 'BYTE', BYTE: 'BYTE', C: 'CHAR', CHAR: 'CHAR', I: 'INT', INT: 'INT', W: 'WORD', WORD: 'WORD', DI: 'DINT', DINT: 'DINT', DW: 'DWORD', DWORD: 'DWORD', R: 'REAL', REAL: 'REAL', S: 'STRING', STRING: 'STRING' };
const AREA_WIDTH: Record<string, S7Type> = { B: 'BYTE', W: 'WORD', D: 'DWORD' };
const AREA_NAME: Record<S7Area, string> = { DB: 'data block', M: 'memory (M, flags)', I: 'inputs (I)', Q: 'outputs (Q)' };

const DB_FORM = /^DB(\d{1,5}),([A-Z]+?)(\d{1,5})(?:\.(\d{1,3}))?$/;
const AREA_FORM = /^([MIQ])([BWD])(\d{1,5})$/;
const AREA_BIT_FORM = /^([MIQ])(\d{1,5})\.(\d{1,3})$/;
const ABSOLUTE_FORM = /^DB(\d{1,5})\.DB([XBWD])(\d{1,5})(?:\.(\d{1,3}))?$/;

/** Bytes an address reads: a bit reads its byte; a STRING its 2-byte header and its characters. */
export function s7ByteCount(address: Pick<S7Address, 'type' | 'length'>): number {
  return address.type === 'STRING' ? (address.length ?? 0) + 2 : SIZE[address.type];
}

/** "DB1,REAL0", "MW10", "M0.1": the address written back in the form this parser reads. */
export function formatS7Address(address: S7Address): string {
  const suffix = address.type === 'X' ? `${address.byte}.${address.bit ?? 0}` : address.type === 'STRING' ? `${address.byte}.${address.length ?? 0}` : `${address.byte}`;
  if (address.area === 'DB') return `DB${address.db},${address.type === 'STRING' ? 'S' : address.type}${suffix}`;
  if (address.type === 'X') return `${address.area}${suffix}`;
  return `${address.area}${address.type === 'BYTE' ? 'B' : address.type === 'WORD' ? 'W' : 'D'}${suffix}`;
}

export function describeArea(area: S7Area, db: number): string {
  return area === 'DB' ? `DB${db}` : AREA_NAME[area];
}

/** The typed forms that read what an absolute address names, for the violation that refuses it. */
function absoluteHint(text: string, match: RegExpExecArray): string {
  const [, db, kind, byte, bit] = match;
  const typed: Record<string, string[]> = {
    X: [`DB${db},X${byte}.${bit ?? 0}`],
    B: [`DB${db},BYTE${byte}`, `DB${db},CHAR${byte}`],
    W: [`DB${db},INT${byte}`, `DB${db},WORD${byte}`],
    D: [`DB${db},REAL${byte}`, `DB${db},DINT${byte}`, `DB${db},DWORD${byte}`],
  };
  const forms = typed[kind!]!;
  const list = forms.length === 1 ? forms[0] : `${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}`;
  return `"${text}" is STEP 7's absolute form, which names bytes but not their type, so the agent cannot know how to read them. Write the typed form: ${list} (the type the variable has in the data block).`;
}

function checkDb(text: string, db: number, type: S7Type, byte: number, dotted: number | undefined): ParsedAddress {
  if (db < 1 || db > 65535) return { problem: `"${text}": data block numbers go from 1 to 65535.` };
  if (byte > MAX_BYTE_OFFSET) return { problem: `"${text}": the byte offset ${byte} is beyond ${MAX_BYTE_OFFSET}.` };
  if (type === 'X') {
    if (dotted === undefined || dotted > 7) return { problem: `"${text}": a bit is written byte.bit with bit 0..7, e.g. DB${db},X${byte}.0.` };
    return { address: { area: 'DB', db, type, byte, bit: dotted } };
  }
  if (type === 'STRING') {
    if (dotted === undefined || dotted < 1 || dotted > MAX_STRING_LENGTH) return { problem: `"${text}": a string is written S<byte>.<length> with its declared length 1..${MAX_STRING_LENGTH}, e.g. DB${db},S${byte}.16 for a String[16].` };
    return { address: { area: 'DB', db, type, byte, length: dotted } };
  }
  if (dotted !== undefined) return { problem: `"${text}": only a bit (X) or a string (S) takes ".<number>"; write DB${db},${type}${byte}.` };
  return { address: { area: 'DB', db, type, byte } };
}

/** The address, or a sentence saying what is wrong with it and what to write instead. */
export function parseS7Address(raw: string): ParsedAddress {
  const text = raw.trim().toUpperCase();
  const absolute = ABSOLUTE_FORM.exec(text);
  if (absolute) return { problem: absoluteHint(raw.trim(), absolute) };
  const db = DB_FORM.exec(text);
  if (db) {
    const type = DB_TYPE[db[2]!];
    if (!type) return { problem: `"${raw}": ${db[2]} is not a type. Use X, BYTE, CHAR, INT, WORD, DINT, DWORD, REAL or S (string), e.g. DB${db[1]},REAL${db[3]}.` };
    return checkDb(raw, Number(db[1]), type, Number(db[3]), db[4] === undefined ? undefined : Number(db[4]));
  }
  const area = AREA_FORM.exec(text);
  if (area) {
    const byte = Number(area[3]);
    if (byte > MAX_BYTE_OFFSET) return { problem: `"${raw}": the byte offset ${byte} is beyond ${MAX_BYTE_OFFSET}.` };
    return { address: { area: area[1] as S7Area, db: 0, type: AREA_WIDTH[area[2]!]!, byte } };
  }
  const bit = AREA_BIT_FORM.exec(text);
  if (bit) {
    const byte = Number(bit[2]);
    const index = Number(bit[3]);
    if (index > 7 || byte > MAX_BYTE_OFFSET) return { problem: `"${raw}": a bit is written byte.bit with bit 0..7, e.g. ${bit[1]}${Math.min(byte, MAX_BYTE_OFFSET)}.0.` };
    return { address: { area: bit[1] as S7Area, db: 0, type: 'X', byte, bit: index } };
  }
  return {
    problem: `"${raw}" is not an S7 address. Write DB<number>,<type><byte> (types X, BYTE, CHAR, INT, WORD, DINT, DWORD, REAL; a bit as DB1,X6.0, a string as DB1,S20.16), or MB/MW/MD, IB/IW/ID, QB/QW/QD with a byte (MW10), or a bit as M0.1, I0.0, Q0.1.`,
  };
}
