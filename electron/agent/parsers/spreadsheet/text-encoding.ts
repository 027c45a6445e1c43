/**
 * Text encodings of spreadsheet files: byte order mark detection at the start of a file, how the
 * record scanner walks the bytes (unit width, lead bytes of double-byte code pages), and decoding
 * of one record's bytes. Records are decoded whole (the scanner finds their ends in the bytes
 * first), so a multi-byte character is never cut by a chunk boundary or a resume offset: a record
 * whose newline is not in the chunk yet is left for the next chunk, which starts at the record's
 * first byte. UTF-8, Latin-1 and UTF-16 are decoded by Node itself; every other code page by
 * iconv-lite.
 */
import { createRequire } from 'node:module';
import { type EncodingInfo, lookupEncoding, supportedEncodingNames } from '../../../../shared/config/encodings.js';

/**
 * iconv-lite, loaded on the first file in an encoding Node does not decode itself (most files are
 * UTF-8 or Latin-1): a parse thread starts without it. Required, not imported: a synchronous
 * load of its CommonJS, without the ES module wrapper that scans its source for exports.
 */
let iconvModule: typeof import('iconv-lite') | undefined;
const iconv = () => (iconvModule ??= createRequire(import.meta.url)('iconv-lite') as typeof import('iconv-lite'));

/** An encoding as the parser uses it, decided at the start of a file. */
export interface FileEncoding {
  /** Python codec name: persisted in the parser state. */
  codec: string;
  width: 1 | 2;
  littleEndian: boolean;
  /** Double-byte code pages: a lead byte takes the next byte with it (null: none). */
  leadByte: ((byte: number) => boolean) | null;
  /** How a record's bytes become text. */
  decoder: 'utf8' | 'latin1' | 'utf16le' | 'utf16be' | 'iconv';
  iconv: string;
}

/** The encoding decided at the start of a file and the length of its byte order mark. */
export interface DetectedEncoding {
  encoding: FileEncoding;
  bomLength: number;
}

const shiftJisLead = (byte: number) =>
  (byte >= 0x81 && byte <= 0x9f) || (byte >= 0xe0 && byte <= 0xfc);
const dbcsLead = (byte: number) => byte >= 0x81 && byte <= 0xfe;

function fromInfo(info: EncodingInfo): FileEncoding {
  const utf16 = info.scan === 'utf_16' || info.scan === 'utf_16_le' || info.scan === 'utf_16_be';
  const bigEndian = info.scan === 'utf_16_be';
  const decoder = utf16 ? (bigEndian ? 'utf16be' : 'utf16le') : info.iconv === 'utf8' || info.iconv === 'latin1' ? info.iconv : 'iconv';
  return {
    codec: info.scan === 'utf_16' ? 'utf_16_le' : info.codec,
    width: utf16 ? 2 : 1,
    littleEndian: !bigEndian,
    leadByte: info.scan === 'shift_jis' ? shiftJisLead : info.scan === 'dbcs' ? dbcsLead : null,
    decoder,
    iconv: info.iconv,
  };
}

/**
 * The encoding of a name or Python alias (also names persisted by earlier versions, e.g. "latin1").
 */
export function resolveEncoding(name: string): FileEncoding {
  const info = lookupEncoding(name);
  if (!info) throw new Error(`"${name}" is not a supported encoding. Supported: ${supportedEncodingNames().join(', ')}.`);
  return fromInfo(info);
}

const BOMS: { bytes: number[]; codec: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], codec: 'utf_8' },
  { bytes: [0xff, 0xfe], codec: 'utf_16_le' },
  { bytes: [0xfe, 0xff], codec: 'utf_16_be' },
];

/**
 * Reads the byte order mark at the start of a file: a BOM wins over file_encoding; without one the
 * configured encoding applies ('utf_16' without a BOM means little-endian, as Windows writes it).
 * Returns null when the chunk is too short to tell yet (it could still be the start of a BOM) and
 * more bytes may come.
 */
export function detectEncoding(
  start: Buffer,
  configured: string,
  final: boolean,
): DetectedEncoding | null {
  for (const bom of BOMS) {
    const prefix = bom.bytes.slice(0, Math.min(bom.bytes.length, start.length));
    if (!prefix.every((byte, i) => start[i] === byte)) continue;
    if (start.length >= bom.bytes.length)
      return { encoding: resolveEncoding(bom.codec), bomLength: bom.bytes.length };
    if (!final) return null;
  }
  return { encoding: resolveEncoding(configured), bomLength: 0 };
}

/** The separator as the code units the scanner compares against. */
export function separatorUnits(separator: string, encoding: FileEncoding): number[] {
  if (encoding.width === 2)
    return Array.from({ length: separator.length }, (_, i) => separator.charCodeAt(i));
  if (encoding.decoder === 'utf8' || encoding.decoder === 'latin1') return [...Buffer.from(separator, encoding.decoder)];
  return [...iconv().encode(separator, encoding.iconv)];
}

/** Decodes `bytes[start, end)`; invalid bytes become U+FFFD, never a lost separator or quote. */
export function decodeBytes(
  bytes: Buffer,
  start: number,
  end: number,
  encoding: FileEncoding,
): string {
  switch (encoding.decoder) {
    case 'utf8':
      return bytes.toString('utf8', start, end);
    case 'latin1':
      return bytes.toString('latin1', start, end);
    case 'utf16le':
      return bytes.toString('utf16le', start, end - ((end - start) % 2));
    case 'utf16be': {
      const even = end - ((end - start) % 2);
      return Buffer.from(bytes.subarray(start, even)).swap16().toString('utf16le');
    }
    case 'iconv':
      return iconv().decode(bytes.subarray(start, end), encoding.iconv);
  }
}
