import type { Logger } from '../agent/index.js';

/** Where refusals go: each of the first ones of a minute, then how many more there were. */
export interface RefusalSink<T> {
  one(item: T): void;
  more(count: number): void;
}

/** The web log as a refusal sink: the request's line, then a warning with the count. */
export function webLogRefusals(log: Logger): RefusalSink<string> {
  return {
    one: (line) => log.info(line),
    more: (count) =>
      log.warn(`${count} more refused request(s) (missing or wrong API token, or a foreign Host) within a minute were not logged one by one.`),
  };
}

/** Refused requests logged one by one per minute; beyond, they are counted. */
export const REFUSALS_LOGGED_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

/**
 * Lines for requests refused before any handler ran (no or a wrong token, a foreign
 * Host). Anyone who reaches the port can send them: 3,000 with 15 KB query strings rotated the whole
 * web log away in 4 s (issue 39). Now the first ones of each minute are logged, then one line says
 * how many more there were.
 */
export class RefusalLog<T = string> {
  private windowStart = Number.NEGATIVE_INFINITY;
  private logged = 0;
  private unlogged = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: RefusalSink<T>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  note(item: T): void {
    const now = this.now();
    if (now - this.windowStart >= MINUTE_MS) {
      this.flush();
      this.windowStart = now;
      this.logged = 0;
    }
    if (this.logged < REFUSALS_LOGGED_PER_MINUTE) {
      this.logged += 1;
      this.sink.one(item);
      return;
    }
    this.unlogged += 1;
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowStart + MINUTE_MS - now));
      this.timer.unref();
    }
  }

  /** Writes the count of what was not logged one by one. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unlogged === 0) return;
    this.sink.more(this.unlogged);
    this.unlogged = 0;
  }
}
