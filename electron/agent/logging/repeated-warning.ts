import { type Disposable, DisposableStore } from '../lifecycle/index.js';

/**
 * Noise whose amount a sender controls (junk Sparkplug commands, unreadable STATE messages) is
 * logged at most once a minute per kind: the first line at once, then one line at the end of each
 * minute in which more came, with how many (issue 50, docs/decisions/0061-noise-once-a-minute.md).
 * The kinds are fixed by the code, so what is kept is bounded.
 */
export const REPEAT_WINDOW_MS = 60_000;

interface Pending {
  count: number;
  last: string;
  timer: Disposable;
}

export class RepeatedWarning {
  private readonly kinds = new Map<string, Pending>();
  private readonly timers = new DisposableStore();

  constructor(
    private readonly write: (message: string) => void,
    private readonly windowMs = REPEAT_WINDOW_MS,
  ) {}

  warn(kind: string, message: string): void {
    const pending = this.kinds.get(kind);
    if (pending) {
      pending.count += 1;
      pending.last = message;
      return;
    }
    this.write(message);
    this.open(kind);
  }

  /** Says what is still counted (on stop). */
  close(): void {
    for (const kind of [...this.kinds.keys()]) this.flush(kind, false);
  }

  private open(kind: string): void {
    const timer = this.timers.setTimeout(() => this.flush(kind, true), this.windowMs);
    this.kinds.set(kind, { count: 0, last: '', timer });
  }

  private flush(kind: string, reopen: boolean): void {
    const pending = this.kinds.get(kind);
    if (!pending) return;
    this.timers.delete(pending.timer);
    this.kinds.delete(kind);
    if (pending.count === 0) return;
    const seconds = Math.round(this.windowMs / 1000);
    this.write(`${pending.last} (${pending.count} more like it in the last ${seconds} s; said at most once a minute)`);
    // Still coming: the next line a window later, not at the next message.
    if (reopen) this.open(kind);
  }
}
