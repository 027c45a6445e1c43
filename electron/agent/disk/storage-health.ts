import type { Clock } from '../time/clock.js';
import { Listeners } from '../lifecycle/index.js';

/** Error codes that mean "no room left" (a full disk or a used-up quota), from Node and SQLite. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const DENIED_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/** The error code of a Node, SQLite or worker error, if it has one. */
export function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when a write failed because the disk (or the user's quota) is full. */
export function isDiskFull(cause: unknown): boolean {
  const code = errorCode(cause);
  if (code !== undefined && FULL_CODES.has(code)) return true;
  return /database or disk is full|no space left on device/i.test((cause as Error | undefined)?.message ?? '');
}

/**
 * Words for a failed write that a plant engineer understands: "Disk full at <folder>" first, since
 * that is what they must act on; the error code last, for whoever reads the log.
 */
export function describeWriteFailure(cause: unknown, folder: string, what: string): string {
  const code = errorCode(cause);
  if (isDiskFull(cause)) return `Disk full at ${folder}: ${what} cannot be written (${code ?? 'no space left'}). Free some space there; Tributary goes on by itself once there is room.`;
  const subject = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
  if (code !== undefined && DENIED_CODES.has(code)) return `${subject} cannot be written at ${folder}: not allowed (${code}). Give the agent's user write access there.`;
  return `${subject} cannot be written at ${folder}: ${(cause as Error | undefined)?.message ?? String(cause)}`;
}

/** One place the agent cannot write to right now, as GET /v1/status shows it. */
export interface StorageProblem {
  /** What could not be written: logs:<file>, store, kpi, config, state, output:<transmit>. */
  area: string;
  /** The folder that could not be written. */
  path: string;
  category: 'disk_full' | 'write_failed';
  message: string;
  /** ISO 8601 time of the first failure of this episode. */
  since: string;
}

/**
 * What the agent could not write, by area, until a write there works again. Every component that
 * writes reports here (its own markers say the same on its streams); status shows the list, and the
 * runtime retries what it owns while the list is not empty. Holds state only: it never writes a log
 * line itself (the log may be what is failing).
 */
export class StorageHealth {
  private readonly current = new Map<string, StorageProblem>();
  private readonly listeners = new Listeners<[problem: StorageProblem, resolved: boolean]>();

  constructor(private readonly clock?: Clock) {}

  /** A write in `area` failed; returns the problem as shown (its first time is kept). */
  report(area: string, folder: string, cause: unknown, what: string): StorageProblem {
    const previous = this.current.get(area);
    const problem: StorageProblem = {
      area,
      path: folder,
      category: isDiskFull(cause) ? 'disk_full' : 'write_failed',
      message: describeWriteFailure(cause, folder, what),
      since: previous?.since ?? this.now(),
    };
    this.current.set(area, problem);
    if (!previous || previous.message !== problem.message) this.listeners.emit(problem, false);
    return problem;
  }

  /** A write in `area` worked: its problem, if any, is over. Returns whether there was one. */
  resolve(area: string): boolean {
    const problem = this.current.get(area);
    if (!problem) return false;
    this.current.delete(area);
    this.listeners.emit(problem, true);
    return true;
  }

  problem(area: string): StorageProblem | undefined {
    return this.current.get(area);
  }

  problems(): StorageProblem[] {
    return [...this.current.values()].map((p) => ({ ...p }));
  }

  get healthy(): boolean {
    return this.current.size === 0;
  }

  /** Called on every new problem (or changed message) and when one is resolved. Returns an unsubscribe. */
  onChange(listener: (problem: StorageProblem, resolved: boolean) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** The agent shuts down: no one listens any more (the subscriptions made for the agent's whole life end here). */
  close(): void {
    this.listeners.clear();
  }

  private now(): string {
    const micros = this.clock?.nowMicros();
    return micros === undefined ? new Date().toISOString() : new Date(Number(micros / 1000n)).toISOString();
  }
}
