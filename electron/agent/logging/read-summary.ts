import type { Logger } from './logger.js';

/** How long reads of one source are summed up before one line says how many records they gave. */
export const READ_SUMMARY_MS = 60_000;

interface Window {
  /** When the window began (epoch ms). */
  since: number;
  records: number;
  reads: number;
  /** Most records one read gave: how the reading was batched. */
  most: number;
  logger: Logger;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Reads of one source (a file, a query) logged as a summary, not per poll: a source that keeps
 * growing (a machine appending a row a second) would otherwise write a line per poll. The first
 * read of a source is logged at once (an operator who drops a file sees it read); later reads are
 * summed and written as one line per source once the window of READ_SUMMARY_MS is over, at the
 * next read or scan, and when the component stops.
 */
export class ReadSummary {
  private readonly windows = new Map<string, Window>();

  constructor(
    /** What is counted: record (files), row (queries). */
    private readonly noun = 'record',
    private readonly now: () => number = Date.now,
    private readonly windowMs = READ_SUMMARY_MS,
  ) {}

  /** `records` were read from `source`; `logger` writes the line (its thread names the reader). */
  note(source: string, records: number, logger: Logger): void {
    if (records <= 0) return;
    const window = this.windows.get(source);
    if (!window) {
      logger.info(`${source}: ${plural(records, this.noun)} read`);
      this.windows.set(source, { since: this.now(), records: 0, reads: 0, most: 0, logger });
      return;
    }
    window.records += records;
    window.reads += 1;
    window.most = Math.max(window.most, records);
    window.logger = logger;
    this.flush(false);
  }

  /** Writes the summaries whose window is over (all of them with `all`, e.g. when stopping). */
  flush(all = true): void {
    const now = this.now();
    for (const [source, window] of this.windows) {
      if (!all && now - window.since < this.windowMs) continue;
      if (window.records > 0) {
        const seconds = Math.max(1, Math.round((now - window.since) / 1000));
        const detail = window.reads === 1 ? '1 read' : `${plural(window.reads, 'read')}, at most ${window.most.toLocaleString('en-US')} in one`;
        window.logger.info(`${source}: ${plural(window.records, this.noun)} read in the last ${seconds} s (${detail})`);
      }
      // A quiet source is forgotten; one that keeps being read starts a new window.
      if (window.records === 0 || all) this.windows.delete(source);
      else this.windows.set(source, { since: now, records: 0, reads: 0, most: 0, logger: window.logger });
    }
  }
}
