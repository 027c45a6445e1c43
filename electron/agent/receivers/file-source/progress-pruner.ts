import type { ProgressStore } from '../../components/contract.js';
import type { Logger } from '../../logging/logger.js';
import { breathe } from '../../lifecycle/index.js';

/**
 * How long the progress of a file that is no longer listed is kept: a renamed (rotated) file is
 * adopted within a poll or two, and a file moved away and back within the hour continues where it
 * stopped; after that its progress is forgotten and the file, should it come back, is read as a new
 * one (with the same record ids, so the receiving side can drop what it already has).
 */
export const PRUNE_AFTER_MS = 60 * 60_000;
/**
 * How often a receiver's progress is compared with its listing: a walk over every row, in pages.
 */
export const PRUNE_EVERY_MS = 60_000;
/** Rows read per page; the event loop is free between pages. */
const PAGE_ROWS = 1000;


export interface PruneOptions {
  receiver: string;
  store: Pick<ProgressStore, 'progressPage' | 'forgetFiles'>;
  logger: Logger;
  running: () => boolean;
  pruneAfterMs?: number;
  pruneEveryMs?: number;
  now?: () => number;
}

/**
 * Forgets the progress of files gone from a receiver's folders (removed by someone else) once they
 * were missing for PRUNE_AFTER_MS, so that the progress table does not grow with every file ever
 * read. Only paths that a complete listing could see count as missing: a folder that could not be
 * listed (a share that is down, an unreadable subfolder) keeps its files' progress.
 */
export class ProgressPruner {
  /** `asset\0stream_type\0path` → when the file was first found missing. */
  private missingSince = new Map<string, number>();
  private lastWalk = Number.NEGATIVE_INFINITY;
  private walking = false;

  constructor(private readonly options: PruneOptions) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Whether a walk is due: the caller builds the set of listed paths only then. */
  due(): boolean {
    return (
      !this.walking && this.now() - this.lastWalk >= (this.options.pruneEveryMs ?? PRUNE_EVERY_MS)
    );
  }

  /**
   * After a listing: `listed` holds every file path it saw, `covered(path)` says whether it could
   * have seen that path. Returns the number of files whose progress was forgotten.
   */
  async prune(listed: ReadonlySet<string>, covered: (path: string) => boolean): Promise<number> {
    if (!this.due()) return 0;
    this.walking = true;
    const { store, receiver, running } = this.options;
    const graceMs = this.options.pruneAfterMs ?? PRUNE_AFTER_MS;
    const now = this.now();
    this.lastWalk = now;
    const missing = new Map<string, number>();
    let pruned = 0;
    try {
      let after: { asset: string; stream_type: string; path: string } | undefined;
      for (;;) {
        const page = store.progressPage(receiver, after, PAGE_ROWS);
        const expired: { asset: string; stream_type: string; path: string }[] = [];
        for (const row of page) {
          if (listed.has(row.path) || !covered(row.path)) continue;
          const key = `${row.asset}\0${row.stream_type}\0${row.path}`;
          const since = this.missingSince.get(key) ?? now;
          if (now - since >= graceMs) expired.push(row);
          else missing.set(key, since);
        }
        if (expired.length > 0) {
          store.forgetFiles(receiver, expired);
          pruned += expired.length;
        }
        if (page.length < PAGE_ROWS || !running()) break;
        after = page.at(-1);
        await breathe();
      }
    } finally {
      // Rows gone meanwhile (adopted by a renamed file, deleted) leave the map with the walk.
      this.missingSince = missing;
      this.walking = false;
    }
    if (pruned > 0) this.options.logger.info(`Forgot the progress of ${pruned} file(s) missing from the folders of ${receiver} for more than ${Math.round(graceMs / 60_000)} min.`);
    return pruned;
  }
}
