import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ENCODINGS, lookupEncoding } from '../../../../shared/config/encodings.js';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { validateConfiguration } from '../../../../shared/config/validate.js';
import { specExampleConfiguration } from '../../../../shared/testing/config-fixtures.js';
import { RECORD_CHUNK_BYTES } from '../../receivers/file-source/file-reader.js';
import { type ParsedRow, type SpreadsheetParser, type SpreadsheetState, createSpreadsheetParser } from './spreadsheet-parser.js';

const parserWith = (fileEncoding: string, parse: Record<string, unknown> = {}) =>
  createSpreadsheetParser(SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', file_encoding: fileEncoding, options: { parse } }));

/** Feeds a file like the receiver: chunks from the persisted offset, the state through JSON (a restart). */
function feed(parser: SpreadsheetParser, file: Buffer, cut: (offset: number) => number): { rows: ParsedRow[]; offset: number; state: SpreadsheetState } {
  let offset = 0;
  let state = parser.initialState();
  const rows: ParsedRow[] = [];
  for (let guard = 0; offset < file.length && guard < 10_000; guard += 1) {
    let end = Math.min(file.length, cut(offset));
    let result = parser.parseChunk(file.subarray(offset, end), state, end === file.length);
    // A record longer than the chunk: read a bigger one, as the receiver does.
    while (result.consumedBytes === 0 && end < file.length) {
      end = Math.min(file.length, end + (end - offset) + 1);
      result = parser.parseChunk(file.subarray(offset, end), state, end === file.length);
    }
    rows.push(...result.rows);
    offset += result.consumedBytes;
    state = JSON.parse(JSON.stringify(result.state)) as SpreadsheetState;
    if (result.consumedBytes === 0) break;
  }
  return { rows, offset, state };
}
const whole = (parser: SpreadsheetParser, file: Buffer) => feed(parser, file, () => file.length);

/** Text in the repertoire of each code page. */
function sampleFor(codec: string): string {
  if (/^(shift_jis|cp932|euc_jp)$/.test(codec)) return '表示ポ温度ｶﾅ';
  if (/^(gbk|gb2312|gb18030)$/.test(codec)) return '温度压力';
  if (/^(big5|cp950)$/.test(codec)) return '溫度壓力';
  if (/^(euc_kr|cp949)$/.test(codec)) return '온도압력';
  if (/^(cp1251|koi8_r)$/.test(codec)) return 'Температура';
  if (codec === 'cp1253') return 'Θερμοκρασία';
  if (codec === 'cp1254') return 'Sıcaklık Ğüş';
  if (codec === 'cp1257') return 'Temperatūra ąčę';
  if (/^(iso8859_2|cp1250|cp852)$/.test(codec)) return 'Łódź Müller';
  if (codec === 'ascii') return 'plain text';
  if (/^utf/.test(codec)) return 'Müller 温度 😀';
  return 'Müller Straße ÄÖÜ';
}

describe('file encodings', () => {
  it.each(ENCODINGS.map((info) => [info.codec, info.iconv] as const))('%s: decodes a file written in it (iconv-lite %s)', (codec, iconvName) => {
    expect(iconv.encodingExists(iconvName)).toBe(true);
    const text = sampleFor(codec);
    const file = iconv.encode(`name,value\n${text},1.5\n"${text}, quoted",2\n`, iconvName === 'utf16le' ? 'utf16le' : iconvName, { addBOM: false });
    const { rows, offset } = whole(parserWith(codec), file);
    expect(rows.map((r) => r.fieldvalues)).toEqual([{ name: text, value: 1.5 }, { name: `${text}, quoted`, value: 2 }]);
    expect(offset).toBe(file.length);
  });

  it('accepts the Python names and aliases plants write', () => {
    for (const name of ['cp1252', 'windows-1252', 'Windows-1252', 'latin-1', 'ISO-8859-15', 'iso8859_15', 'utf-8-sig', 'UTF8', 'utf_16_le', 'utf-16-be', 'sjis', 'Shift_JIS', 'cp850', 'GBK', 'big5']) {
      const file = iconv.encode('a\nx\n', lookupEncoding(name)!.iconv);
      expect(whole(parserWith(name), file).rows.map((r) => r.fieldvalues), name).toEqual([{ a: 'x' }]);
    }
  });

  it('lets a byte order mark win over file_encoding', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name\nMüller\n')]);
    expect(whole(parserWith('cp1252'), utf8).rows[0]!.fieldvalues).toEqual({ name: 'Müller' });
    const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('name\n温度\n', 'utf16le').swap16()]);
    expect(whole(parserWith('shift_jis'), utf16be).rows[0]!.fieldvalues).toEqual({ name: '温度' });
    const sig = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name\nä\n')]);
    expect(whole(parserWith('utf-8-sig'), sig).rows[0]!.fieldvalues).toEqual({ name: 'ä' });
    expect(whole(parserWith('utf-8-sig'), Buffer.from('name\nä\n')).rows[0]!.fieldvalues).toEqual({ name: 'ä' });
  });

  it('keeps a Shift_JIS second byte that equals the separator inside its character', () => {
    // "ポ" is 0x83 0x7C: its second byte is "|". With a quote after it, a byte-wise scan would open a
    // quoted cell there and swallow the next line.
    const file = iconv.encode('h1|h2\nx|ポ"a\ny|表\n', 'shift_jis');
    expect(whole(parserWith('shift_jis', { separator: '|' }), file).rows.map((r) => r.fieldvalues)).toEqual([
      { h1: 'x', h2: 'ポ"a' },
      { h1: 'y', h2: '表' },
    ]);
  });

  it('reads random double-byte files exactly as the same text in UTF-8 (property)', () => {
    // Cells of characters whose second bytes are "|" or "\\", separators, quotes and newlines.
    const cell = fc.string({ unit: fc.constantFrom('ポ', '表', 'ｶ', 'a', '|', '"', '\n', '1', ' ') });
    const quote = (text: string) => (/[|"\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }), fc.constantFrom('shift_jis', 'cp932'), (rows, codec) => {
        const text = ['h1|h2', ...rows.map((r) => r.map(quote).join('|'))].join('\n') + '\n';
        const expected = whole(parserWith('utf-8', { separator: '|' }), Buffer.from(text)).rows;
        expect(whole(parserWith(codec, { separator: '|' }), iconv.encode(text, codec)).rows.map((r) => r.fieldvalues)).toEqual(expected.map((r) => r.fieldvalues));
      }),
      { numRuns: 300 },
    );
  });

  const straddling: [string, string, string][] = [
    ['utf_8', 'utf8', 'ü温😀'],
    ['shift_jis', 'shift_jis', '表示ポ'],
    ['gb18030', 'gb18030', '温度\u{20000}'], // a four-byte GB18030 sequence
    ['utf_16_le', 'utf16le', 'ü温😀'], // a surrogate pair
    ['cp1252', 'windows-1252', '€äß'],
  ];
  it.each(straddling)('%s: characters cut by the 128 KiB chunk boundary are read whole', (codec, iconvName, text) => {
    const header = iconv.encode('n,text\n', iconvName);
    const line = (n: number) => iconv.encode(`${n},${text}${'x'.repeat(n % 7)}\n`, iconvName);
    const parts = [header];
    let size = header.length;
    for (let n = 0; size < 3 * RECORD_CHUNK_BYTES; n += 1) {
      parts.push(line(n));
      size += parts[parts.length - 1]!.length;
    }
    const file = Buffer.concat(parts);
    const reference = whole(parserWith(codec), file);
    const rows = reference.rows.length;
    expect(reference.rows.every((r, n) => r.fieldvalues.n === n && r.fieldvalues.text === `${text}${'x'.repeat(n % 7)}`)).toBe(true);
    // Chunks of RECORD_CHUNK_BYTES (the general path's, which every encoding but UTF-8 takes) from
    // every resume offset, and chunks shifted by 1..5 bytes so that every
    // byte of a multi-byte character lands on a boundary somewhere.
    for (const shift of [0, 1, 2, 3, 4, 5]) {
      const chunked = feed(parserWith(codec), file, (offset) => offset + RECORD_CHUNK_BYTES - shift);
      expect(chunked.rows.length, `shift ${shift}`).toBe(rows);
      expect(chunked.rows).toEqual(reference.rows);
      expect(chunked.offset).toBe(file.length);
    }
  });

  it('resumes at any byte offset of a double-byte file without re-reading or skipping a row (property)', () => {
    const file = iconv.encode('名前|値\n表示|1\n"ポ|""x"""|2\n温度|3\n\nｶﾅ|4', 'shift_jis');
    const parser = parserWith('shift_jis', { separator: '|' });
    const reference = whole(parser, file);
    expect(reference.rows.map((r) => r.fieldvalues)).toEqual([
      { 名前: '表示', 値: 1 },
      { 名前: 'ポ|"x"', 値: 2 },
      { 名前: '温度', 値: 3 },
      { 名前: 'ｶﾅ', 値: 4 },
    ]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: file.length }), { minLength: 1, maxLength: 8 }), (steps) => {
        let k = 0;
        const split = feed(parser, file, (offset) => offset + steps[k++ % steps.length]!);
        expect(split.rows).toEqual(reference.rows);
        expect(split.state).toEqual(reference.state);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an unknown encoding name with the supported ones listed (validation and parser)', () => {
    const doc = specExampleConfiguration() as any;
    doc.data_receiver[0].parsers[0].file_encoding = 'cp1252x';
    const violation = validateConfiguration(doc).violations.find((v) => v.json_path.join('.') === 'data_receiver.0.parsers.0.file_encoding');
    expect(violation?.level).toBe('error');
    expect(violation?.description).toMatch(/"cp1252x" is not a supported encoding\. Did you mean "cp1252"\?.*Supported.*utf_8, .*shift_jis/);
    expect(() => parserWith('klingon').parseChunk(Buffer.from('a\n1\n'), parserWith('klingon').initialState(), true)).toThrow(/not a supported encoding\. Supported: utf_8/);
  });

  it('reads states persisted by earlier versions (utf-8, utf-16le, latin1)', () => {
    const parser = parserWith('utf-8');
    const state = { header: ['a'], rowsSeen: 1, linesSeen: 1, counter: 0, encoding: 'latin1' };
    expect(parser.parseChunk(Buffer.from([0x4d, 0xfc, 0x0a]), state, true).rows[0]!.fieldvalues).toEqual({ a: 'Mü' });
    const utf16 = { ...state, encoding: 'utf-16le' };
    expect(parser.parseChunk(Buffer.from('x\n', 'utf16le'), utf16, true).rows[0]!.fieldvalues).toEqual({ a: 'x' });
  });
});
