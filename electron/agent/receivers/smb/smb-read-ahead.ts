/**
 * Read-ahead for a file read in sequence, chunk by chunk (as the receiver reads): the next 4 MiB
 * (or one chunk, if chunks are larger) is on its way while a chunk is parsed, in two windows at a
 * time (the one in use and the next). Windows are filled in place and their memory serves the next
 * windows: fresh memory for every 4 MiB cost more CPU than the copy into it (page faults, garbage
 * collection; docs/performance.md, "SMB 3.1.1 reads").
 */

/** Bytes read ahead of a file read in sequence, twice (the window in use and the next). */
const READ_AHEAD = 4 * 1024 * 1024;

/** Reads a range into `into` and resolves (with the part that was read) once no read writes to it. */
export type ReadInto = (fileId: Buffer, offset: number, length: number, into: Buffer) => Promise<Buffer>;

interface ReadWindow {
  file: string;
  offset: number;
  length: number;
  bytes: Promise<Buffer>;
  memory: Buffer;
}

export class ReadAhead {
  /** Windows of the file being read, in order. */
  private windows: ReadWindow[] = [];
  /** Memory of windows no longer in use, for the next ones. */
  private spare: Buffer[] = [];

  constructor(private readonly readInto: ReadInto) {}

  /**
   * After a whole chunk was read up to `end`: the next is most likely asked for soon. Not after a
   * small read (a file's first bytes, compared to see whether it was rewritten): most such files
   * are not read further.
   */
  start(file: string, fileId: Buffer, end: number, chunk: number): void {
    if (chunk >= 64 * 1024) this.windows.push(this.window(file, fileId, end, Math.max(READ_AHEAD, chunk)));
  }

  /** The range from a window when one holds all of it (in memory of its own), else undefined. */
  async take(file: string, fileId: Buffer, offset: number, length: number): Promise<Buffer | undefined> {
    const window = this.windows.find((w) => w.file === file && offset >= w.offset && offset + length <= w.offset + w.length);
    if (!window) return undefined;
    const data = await window.bytes.catch(() => undefined);
    // Dropped meanwhile (by a read of another file): its memory may already hold another window.
    if (!this.windows.includes(window)) return undefined;
    // Past what the window found (the end of the file when it was read): read it afresh, the file may have grown.
    if (!data || offset + length > window.offset + data.length) return undefined;
    this.drop(this.windows.indexOf(window));
    if (this.windows.length === 1 && data.length === window.length) this.windows.push(this.window(file, fileId, window.offset + window.length, window.length));
    // Its own memory, not a slice of the window: the bytes are transferred to the parse worker.
    const out = Buffer.allocUnsafeSlow(length);
    data.copy(out, 0, offset - window.offset, offset - window.offset + length);
    return out;
  }

  /** Drops the windows before `index` (all by default); their memory serves again once no read writes to it. */
  drop(index = Infinity): void {
    const dropped = this.windows.slice(0, index);
    this.windows = this.windows.slice(index);
    for (const window of dropped) {
      const recycle = () => {
        if (this.spare.length < 2) this.spare.push(window.memory);
      };
      window.bytes.then(recycle, recycle);
    }
  }

  private window(file: string, fileId: Buffer, offset: number, length: number): ReadWindow {
    const spare = this.spare.findIndex((buffer) => buffer.length === length);
    const memory = spare >= 0 ? this.spare.splice(spare, 1)[0]! : Buffer.allocUnsafeSlow(length);
    const bytes = this.readInto(fileId, offset, length, memory);
    bytes.catch(() => undefined);
    return { file, offset, length, bytes, memory };
  }
}
