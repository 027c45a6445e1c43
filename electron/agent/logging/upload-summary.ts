import type { Logger } from './logger.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';

/** How long routine successes of one component are summed up before one INFO line says what they did. */
export const SUCCESS_SUMMARY_MS = 60_000;

const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Routine successes (uploads) of one component as one INFO line per minute: "42 uploads, 126,000
 * records (3.1 MiB) in the last 60 s". Each single upload is a DEBUG line (the caller writes it): at
 * ~3 uploads a second, INFO lines per upload pushed an outage's warnings out of the logs within
 * minutes (issue 38). A window starts with its first success and is written when it is over, before a
 * warning of the same component (so the log reads: what got out, then what failed), and at stop.
 */
export class UploadSummary {
  private window: { since: number; uploads: number; records: number; bytes: number } | undefined;
  private readonly timers = new DisposableStore();
  private timer: Disposable | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    private readonly windowMs = SUCCESS_SUMMARY_MS,
  ) {}

  /** One upload of `records` records in `bytes` went out. */
  note(records: number, bytes: number): void {
    if (!this.window) {
      this.window = { since: this.now(), uploads: 0, records: 0, bytes: 0 };
      this.timer = this.timers.setTimeout(() => this.flush(), this.windowMs);
    }
    this.window.uploads += 1;
    this.window.records += records;
    this.window.bytes += bytes;
  }

  /** Writes the window so far (if it holds anything) and starts afresh with the next upload. */
  flush(): void {
    if (this.timer) this.timers.delete(this.timer);
    this.timer = undefined;
    const window = this.window;
    this.window = undefined;
    if (!window || window.uploads === 0) return;
    const seconds = Math.max(1, Math.round((this.now() - window.since) / 1000));
    const what = `${count(window.uploads, 'upload')}, ${count(window.records, 'record')} (${size(window.bytes)})`;
    this.logger.info(`${what} in the last ${seconds} s`);
  }
}
