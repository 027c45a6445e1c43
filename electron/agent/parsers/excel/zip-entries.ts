/**
 * The parts of an .xlsx (a zip archive), read the way a zip is meant to be read: from the central
 * directory at its end, each part inflated as a stream (fflate) on demand. Parts are read in any
 * order (the shared strings come after the sheets in Excel's files) without holding the archive or
 * a whole sheet in memory. Sizes and counts are bounded; a broken archive is an error with a place.
 */
import { Inflate } from 'fflate';
import type { ByteSource } from '../document/document-reader.js';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

const MAX_ENTRIES = 100_000;
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;
/** Compressed bytes inflated per step: a step's text stays small whatever the compression ratio. */
const STEP_BYTES = 16 * 1024;

export class ZipError extends Error {}

export function readZipDirectory(source: ByteSource): Map<string, ZipEntry> {
  const tailLength = Math.min(source.size, 65_557);
  const tail = source.read(source.size - tailLength, tailLength);
  let eocd = -1;
  for (let at = tail.length - 22; at >= 0; at -= 1) if (tail.readUInt32LE(at) === 0x06054b50) { eocd = at; break; }
  if (eocd < 0) throw new ZipError('not an Excel workbook (.xlsx): no zip directory at its end (an .xls file, or a file cut short)');
  let count = tail.readUInt16LE(eocd + 10);
  let size = tail.readUInt32LE(eocd + 12);
  let offset = tail.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    // Zip64: the locator just before the end record names the zip64 end record.
    const locator = eocd - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw new ZipError('broken zip64 directory');
    const record = source.read(Number(tail.readBigUInt64LE(locator + 8)), 56);
    if (record.readUInt32LE(0) !== 0x06064b50) throw new ZipError('broken zip64 directory');
    count = Number(record.readBigUInt64LE(32));
    size = Number(record.readBigUInt64LE(40));
    offset = Number(record.readBigUInt64LE(48));
  }
  if (count > MAX_ENTRIES || size > MAX_DIRECTORY_BYTES || offset + size > source.size) throw new ZipError('broken zip directory (too many entries, or beyond the end of the file)');
  const directory = source.read(offset, size);
  const entries = new Map<string, ZipEntry>();
  let at = 0;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50) throw new ZipError(`broken zip directory at entry ${i + 1}`);
    const method = directory.readUInt16LE(at + 10);
    let compressedSize = directory.readUInt32LE(at + 20);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    let localOffset = directory.readUInt32LE(at + 42);
    const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      const extra = directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
      for (let e = 0; e + 4 <= extra.length; e += 4 + extra.readUInt16LE(e + 2)) {
        if (extra.readUInt16LE(e) !== 1) continue;
        let field = e + 4;
        if (directory.readUInt32LE(at + 24) === 0xffffffff) field += 8;
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(extra.readBigUInt64LE(field));
          field += 8;
        }
        if (localOffset === 0xffffffff) localOffset = Number(extra.readBigUInt64LE(field));
      }
    }
    entries.set(name.replace(/\\/g, '/').replace(/^\//, ''), { name, method, compressedSize, localOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One part's text, decoded as UTF-8 and handed over a piece at a time. */
export class EntryText {
  private position: number;
  private readonly end: number;
  private readonly inflate: Inflate | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  private pieces: string[] = [];
  private finished = false;
  produced = 0;

  constructor(private readonly source: ByteSource, entry: ZipEntry) {
    const header = source.read(entry.localOffset, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new ZipError(`broken zip entry ${entry.name}`);
    this.position = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    this.end = this.position + entry.compressedSize;
    if (this.end > source.size) throw new ZipError(`zip entry ${entry.name} goes beyond the end of the file (cut short?)`);
    if (entry.method === 8) {
      this.inflate = new Inflate();
      this.inflate.ondata = (data) => this.accept(data);
    } else if (entry.method !== 0) throw new ZipError(`zip entry ${entry.name} is compressed with method ${entry.method}, not deflate`);
  }

  get done(): boolean {
    return this.finished;
  }

  /** The next piece of text ('' at the end or when a step gave none). */
  next(): string {
    while (this.pieces.length === 0 && !this.finished) this.step();
    return this.pieces.length === 1 ? this.pieces.pop()! : this.pieces.splice(0).join('');
  }

  private accept(data: Uint8Array): void {
    this.produced += data.length;
    const text = this.decoder.decode(data, { stream: true });
    if (text) this.pieces.push(text);
  }

  private step(): void {
    const length = Math.min(STEP_BYTES, this.end - this.position);
    const chunk = this.source.read(this.position, length);
    this.position += chunk.length;
    const last = this.position >= this.end || chunk.length === 0;
    try {
      if (this.inflate) this.inflate.push(chunk, last);
      else this.accept(chunk);
    } catch (cause) {
      throw new ZipError(`broken compressed data (${(cause as Error).message})`);
    }
    if (last) {
      const rest = this.decoder.decode();
      if (rest) this.pieces.push(rest);
      this.finished = true;
    }
  }
}
