import fs from 'node:fs';
import path from 'node:path';

export interface LogFileOptions {
  /** Rotate when the file would grow past this many bytes. */
  maxBytes: number;
  /** Rotated generations kept: name.1 (newest) … name.<keep>. */
  keep: number;
}

/**
 * An append-only log file rotated by size. Writes are synchronous so that a line is on disk, in
 * order, before the call returns: logs must explain a crash, not be lost in it.
 */
export class LogFile {
  private fd: number | undefined;
  private size = 0;

  constructor(
    readonly filePath: string,
    private readonly options: LogFileOptions,
  ) {
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
    this.open();
  }

  private open(): void {
    this.fd = fs.openSync(this.filePath, 'a', 0o640);
    this.size = fs.fstatSync(this.fd).size;
  }

  append(line: string): void {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) this.rotate();
    if (this.fd === undefined) this.open();
    fs.writeSync(this.fd!, bytes);
    this.size += bytes.length;
  }

  /** The current file and its rotated generations, newest first, that exist. */
  generations(): string[] {
    const files = [this.filePath];
    for (let i = 1; i <= this.options.keep; i += 1) files.push(`${this.filePath}.${i}`);
    return files.filter((f) => fs.existsSync(f));
  }

  private rotate(): void {
    this.close();
    for (let i = this.options.keep; i >= 1; i -= 1) {
      const from = i === 1 ? this.filePath : `${this.filePath}.${i - 1}`;
      const to = `${this.filePath}.${i}`;
      if (fs.existsSync(from)) fs.renameSync(from, to);
    }
    this.open();
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
