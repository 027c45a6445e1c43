/**
 * Text encodings of spreadsheet files: byte order mark detection at the start of a file, the code
 * unit width the record scanner walks in, and decoding of one record's bytes.
 */

export type FileEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';
export type ConfiguredEncoding = FileEncoding | 'utf-16';

/** The encoding decided at the start of a file and the length of its byte order mark. */
export interface DetectedEncoding {
  encoding: FileEncoding;
  bomLength: number;
}

const BOMS: { bytes: number[]; encoding: FileEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/**
 * Reads the byte order mark at the start of a file; without one the configured encoding applies
 * ('utf-16' without a BOM means little-endian, as Windows writes it). Returns null when the chunk
 * is too short to tell yet (it could still be the start of a BOM) and more bytes may come.
 */
export function detectEncoding(start: Buffer, configured: ConfiguredEncoding, final: boolean): DetectedEncoding | null {
  for (const bom of BOMS) {
    const prefix = bom.bytes.slice(0, Math.min(bom.bytes.length, start.length));
    if (!prefix.every((byte, i) => start[i] === byte)) continue;
    if (start.length >= bom.bytes.length) return { encoding: bom.encoding, bomLength: bom.bytes.length };
    if (!final) return null;
  }
  return { encoding: configured === 'utf-16' ? 'utf-16le' : configured, bomLength: 0 };
}

/** Bytes per code unit in which newline, quote and separator are single units. */
export function unitWidth(encoding: FileEncoding): 1 | 2 {
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 1;
}

/** The separator as the code units the scanner compares against. */
export function separatorUnits(separator: string, encoding: FileEncoding): number[] {
  if (unitWidth(encoding) === 2) return Array.from({ length: separator.length }, (_, i) => separator.charCodeAt(i));
  return [...Buffer.from(separator, encoding === 'latin1' ? 'latin1' : 'utf8')];
}

/** Decodes `bytes[start, end)`; invalid UTF-8 becomes U+FFFD, never a lost separator or quote. */
export function decodeBytes(bytes: Buffer, start: number, end: number, encoding: FileEncoding): string {
  switch (encoding) {
    case 'utf-8':
      return bytes.toString('utf8', start, end);
    case 'latin1':
      return bytes.toString('latin1', start, end);
    case 'utf-16le':
      return bytes.toString('utf16le', start, end - ((end - start) % 2));
    case 'utf-16be': {
      const even = end - ((end - start) % 2);
      return Buffer.from(bytes.subarray(start, even)).swap16().toString('utf16le');
    }
  }
}
