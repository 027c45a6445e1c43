import fs from 'node:fs';
import path from 'node:path';
import { folderTakesWrites } from '../disk/storage-recovery.js';

export interface LogFileOptions {
  /** Rotate when the file would grow past this many bytes. */
  maxBytes: number;
  /** Rotated generations kept: name.1 (newest) … name.<keep>. */
  keep: number;
  /** Told when writing (or rotating) starts failing, and when it works again. */
  events?: LogFileEvents;
}

export interface LogFileEvents {
  /** A write or a rotation failed; called again when the reason changes. */
  failed(cause: unknown, during: 'write' | 'rotate'): void;
  /**
   * Writing works again. `kept` lines waited in memory and are now written; `dropped` lines were
   * lost because the memory buffer was full. Called outside the append that recovered.
   */
  recovered(info: { kept: number; dropped: number }): void;
}

/** Lines kept in memory while the file cannot be written; beyond this they are counted and dropped. */
export const PENDING_LIMIT_BYTES = 256 * 1024;
/** A failed rotation is tried again after this long (meanwhile the file grows past maxBytes). */
const ROTATE_RETRY_MS = 60_000;

/**
 * An append-only log file rotated by size. Writes are synchronous so that a line is on disk, in
 * order, before the call returns: logs must explain a crash, not be lost in it.
 *
 * Appending never throws: a log line must not take down the caller (a receiver, an HTTP response's
 * finish handler). While the file cannot be written (disk full, folder gone, no permission) lines
 * wait in memory up to PENDING_LIMIT_BYTES, later ones are counted and dropped, and every append
 * tries again; the first write that works flushes what waited and reports how much was lost.
 */
export class LogFile {
  private fd: number | undefined;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropped = 0;
  private failure: string | undefined;
  private rotateAfter = 0;

  constructor(
    readonly filePath: string,
    private readonly options: LogFileOptions,
  ) {
    try {
      this.open();
    } catch (cause) {
      this.failed(cause, 'write');
    }
  }

  private open(): void {
    fs.mkdirSync(path.dirname(this.filePath), { recursive: true, mode: 0o750 });
    this.fd = fs.openSync(this.filePath, 'a', 0o640);
    this.size = fs.fstatSync(this.fd).size;
  }

  append(line: string): void {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    if (this.pending.length > 0 && !this.flushPending()) {
      this.hold(bytes);
      return;
    }
    if (!this.write(bytes)) this.hold(bytes);
  }

  /** Writes what waited in memory, if the file can be written now. Returns whether it all went. */
  flush(): boolean {
    return this.pending.length === 0 || this.flushPending();
  }

  /**
   * Tries again after a failure (the runtime calls this while the problem lasts): writes what waited,
   * or, with nothing waiting, checks that the folder takes writes again. Returns whether it works.
   */
  retry(): boolean {
    if (this.failure === undefined) return true;
    if (this.pending.length > 0) return this.flushPending() && this.failure === undefined;
    if (this.failure === 'rotate' || !folderTakesWrites(path.dirname(this.filePath))) return false;
    this.recovered();
    return true;
  }

  /** Lines waiting in memory and lines dropped since writing last failed (for tests and status). */
  backlog(): { kept: number; dropped: number } {
    return { kept: this.pending.length, dropped: this.dropped };
  }

  private flushPending(): boolean {
    while (this.pending.length > 0) {
      if (!this.write(this.pending[0]!)) return false;
      this.pendingBytes -= this.pending.shift()!.length;
    }
    return true;
  }

  private hold(bytes: Buffer): void {
    if (this.pendingBytes + bytes.length <= PENDING_LIMIT_BYTES) {
      this.pending.push(bytes);
      this.pendingBytes += bytes.length;
    } else this.dropped += 1;
  }

  /** One line to the file; false (and the file as it was) when it cannot be written. */
  private write(bytes: Buffer): boolean {
    const before = this.size;
    try {
      if (this.size > 0 && this.size + bytes.length > this.options.maxBytes && Date.now() >= this.rotateAfter) this.rotate();
      if (this.fd === undefined) this.open();
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(this.fd!, bytes, written, bytes.length - written);
      this.size += bytes.length;
    } catch (cause) {
      // A line cut short by a full disk would glue onto the next one: take the fragment back.
      if (this.fd !== undefined) {
        try {
          fs.ftruncateSync(this.fd, before);
        } catch {
          // The next successful write starts at the fragment's end; the line is still in memory.
        }
        this.size = before;
      }
      this.failed(cause, 'write');
      return false;
    }
    if (this.failure !== undefined && this.failure !== 'rotate') this.recovered();
    return true;
  }

  /** The current file and its rotated generations, newest first, that exist. */
  generations(): string[] {
    const files = [this.filePath];
    for (let i = 1; i <= this.options.keep; i += 1) files.push(`${this.filePath}.${i}`);
    return files.filter((f) => fs.existsSync(f));
  }

  /**
   * Renames name → name.1 → … → name.<keep>. If a rename fails (no permission, a folder in the
   * way), the current file is kept and grows past maxBytes until the next try.
   */
  private rotate(): void {
    this.close();
    try {
      for (let i = this.options.keep; i >= 1; i -= 1) {
        const from = i === 1 ? this.filePath : `${this.filePath}.${i - 1}`;
        const to = `${this.filePath}.${i}`;
        if (fs.existsSync(from)) fs.renameSync(from, to);
      }
      if (this.failure === 'rotate') this.recovered();
    } catch (cause) {
      this.rotateAfter = Date.now() + ROTATE_RETRY_MS;
      this.failed(cause, 'rotate');
    }
    this.open();
  }

  private failed(cause: unknown, during: 'write' | 'rotate'): void {
    const reason = during === 'rotate' ? 'rotate' : `${(cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.message}`;
    if (this.failure === reason) return;
    this.failure = reason;
    this.options.events?.failed(cause, during);
  }

  private recovered(): void {
    const info = { kept: this.pending.length, dropped: this.dropped };
    this.failure = undefined;
    this.dropped = 0;
    // The listener usually writes a log line itself: not from inside this append.
    if (this.options.events) queueMicrotask(() => this.options.events!.recovered(info));
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      fs.closeSync(fd);
    } catch {
      // Closing a file on a failing disk: nothing more to do with it.
    }
  }
}
