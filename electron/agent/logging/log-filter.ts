/**
 * Which lines of a log a read wants (issue 38): a time range, a minimum level and a component,
 * judged from a line's head alone (`YYYY-MM-DD HH:MM:SS.ffffff | thread | component | LEVEL | …`),
 * so that a scan over the rotated files never needs a whole line, let alone a whole file.
 */
import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import { lineTimestamp } from './log-reader.js';
import type { LogLevel } from './logger.js';

/** Bytes of a line's start that decide its fate: the time stamp, thread, component and level. */
export const HEAD_BYTES = 1024;

export interface LogFilter {
  /** Only lines stamped strictly after this (epoch µs). */
  since?: bigint;
  /** Only lines stamped at or before this (epoch µs). */
  until?: bigint;
  /** The lowest level wanted: WARNING gives warnings and errors. */
  level?: LogLevel;
  /** Only lines of this component (exactly as written in the line). */
  component?: string;
  /**
   * How a line names its component and level. `audit` (logs/audit.log, docs/decisions/0069):
   * `stamp | token=<name> | role=<role> | METHOD path | status outcome`; the component is the token's
   * name, the level follows the status (below 400 INFO, 4xx WARNING, 5xx ERROR).
   */
  shape?: 'agent' | 'audit';
}

/**
 * take: the line is wanted; skip: not this one; stop: this line and every older one are before
 * `since` (the files are in time order, newest last), so a backward walk ends here.
 */
export type Verdict = 'take' | 'skip' | 'stop';

const RANK: Record<string, number> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3, CRITICAL: 4 };
/** The agent's own stamp form: compared as text (it sorts as time), no parsing per line. */
const OWN_STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6} \| /;

export interface CompiledFilter {
  /** False for an empty filter: every line is taken and no head needs reading. */
  readonly active: boolean;
  /** The verdict on a line from its head (its first HEAD_BYTES bytes, up to its end). */
  judge(head: string): Verdict;
  /** Whether a line stamped like this head is after `until` (so is every newer line). */
  afterUntil(head: string): boolean;
}

export function compileFilter(filter: LogFilter = {}): CompiledFilter {
  const since = filter.since === undefined ? undefined : formatSpecTimestamp(filter.since);
  const until = filter.until === undefined ? undefined : formatSpecTimestamp(filter.until);
  const minimum = filter.level === undefined ? undefined : RANK[filter.level];
  const component = filter.component;
  const fieldsWanted = minimum !== undefined || component !== undefined;
  /** -1 before, 0 equal, 1 after `bound`; undefined for a line without a readable stamp. */
  const compare = (head: string, bound: string, micros: bigint): number | undefined => {
    if (OWN_STAMP.test(head)) {
      const stamp = head.slice(0, 26);
      return stamp < bound ? -1 : stamp > bound ? 1 : 0;
    }
    const stamp = lineTimestamp(head);
    if (stamp === undefined) return undefined;
    return stamp < micros ? -1 : stamp > micros ? 1 : 0;
  };
  const afterUntil = (head: string) => until !== undefined && (compare(head, until, filter.until!) ?? 0) > 0;
  return {
    active: since !== undefined || until !== undefined || fieldsWanted,
    afterUntil,
    judge(head) {
      // A line without a stamp (not written by the agent) passes the time bounds, as before.
      if (since !== undefined && (compare(head, since, filter.since!) ?? 1) <= 0) return 'stop';
      if (afterUntil(head)) return 'skip';
      if (!fieldsWanted) return 'take';
      const fields = filter.shape === 'audit' ? auditFields(head) : head.split(' | ', 5);
      // Without all its fields a line has no level or component to match: not a match.
      if (fields.length < 5) return 'skip';
      if (component !== undefined && fields[2] !== component) return 'skip';
      if (minimum !== undefined && !((RANK[fields[3]!] ?? -1) >= minimum)) return 'skip';
      return 'take';
    },
  };
}

/** An audit line's head as the fields of an agent line: stamp, thread, component (token name), level. */
function auditFields(head: string): string[] {
  const fields = head.split(' | ', 5);
  if (fields.length < 5 || !fields[1]!.startsWith('token=')) return [];
  const status = Number.parseInt(fields[4]!, 10);
  const level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARNING' : 'INFO';
  return [fields[0]!, 'audit', fields[1]!.slice('token='.length), level, fields[4]!];
}
