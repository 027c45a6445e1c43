import crypto from 'node:crypto';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import type { ComponentContext } from '../../components/contract.js';
import type { PreparedStatement, SqlDriver } from './sql-driver.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { type BoundValue, type SqlCell, type StateField, dateTimeMicros, fieldValueOf, initialStateValue, isDateTime, isUnreadable, parseDateTimeText, stateValueOf } from './sql-values.js';

/** Rows per page from the driver and per commit: bounds memory whatever max_rows_per_poll is. */
export const PAGE_ROWS = 500;

/** What a stream runs, worked out once from its configuration. */
export interface StreamPlan {
  key: StreamKey;
  fields: StateField[];
  statement: PreparedStatement;
  /** Column of the record time stamp: timestamp_column, else the first datetime state field. */
  timestampColumn?: string;
  /** Whether timestampColumn was named explicitly (then a missing column is an error). */
  timestampExplicit: boolean;
}

export interface PollOutcome {
  rows: number;
  committed: number;
  /** max_rows_per_poll rows came back: more are probably waiting. */
  limited: boolean;
  /** A whole page shared one state value and had to be committed at once: rows beyond it may be skipped. */
  tiedPage: boolean;
  /** Values that could not be kept (stored as null): how many, and the first named by row and column. */
  unreadable?: { count: number; first: AgentMessage };
}

/** The result has no column for a state field (or the named timestamp_column). */
export class MissingColumnError extends Error {
  constructor(
    /** With its code (issue 57): the console writes it in the operator's language. */
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }
}

interface Pending {
  record: AgentRecord;
  state: string[];
  /** The row's state values as one key: rows with the same key are committed together or not at all. */
  tie: string;
}

function hash(parts: readonly string[]): string {
  return crypto.createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}

export function findColumn(columns: readonly string[], name: string): number | undefined {
  const exact = columns.indexOf(name);
  if (exact !== -1) return exact;
  const folded = columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
  return folded === -1 ? undefined : folded;
}

/** Column names with repeats made unique (`id`, `id_2`), so that no value is lost. */
export function uniqueNames(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const count = (seen.get(c) ?? 0) + 1;
    seen.set(c, count);
    return count === 1 ? c : `${c}_${count}`;
  });
}

export function timestampMicros(cell: SqlCell | undefined, timeZone: string): bigint | undefined {
  if (cell === undefined || cell === null) return undefined;
  if (isDateTime(cell)) return dateTimeMicros(cell, timeZone);
  if (typeof cell === 'string') {
    const parsed = parseDateTimeText(cell);
    return parsed ? dateTimeMicros(parsed, timeZone) : undefined;
  }
  return undefined;
}

/**
 * One poll of one stream: binds the committed state values, reads at most `maxRows` rows page by
 * page and commits them in chunks, each with the state values of its last row. Rows that share
 * their state values (a time stamp that repeats) are never split across commits, so a restart or
 * the next poll (`column > :value`) neither skips nor repeats part of such a group.
 */
export async function pollStream(options: { receiver: string; plan: StreamPlan; driver: SqlDriver; context: ComponentContext; maxRows: number; timeZone: string }): Promise<PollOutcome> {
  const { receiver, plan, context, timeZone } = options;
  const { store, pipeline, clock } = context;
  let state = plan.fields.map((f) => store.streamState(receiver, plan.key, f.column_name) ?? initialStateValue(f));
  const parameters: BoundValue[] = plan.fields.map((f, i) => ({ name: f.column_name, type: f.data_type, value: state[i]! }));
  const pollMicros = String(clock.nowMicros());
  const seen = new Map<string, number>();
  let pending: Pending[] = [];
  let committed = 0;
  let rowIndex = 0;
  let layout: { names: string[]; state: number[]; timestamp: number | undefined } | undefined;
  let unreadable: PollOutcome['unreadable'];

  const submit = (rows: readonly Pending[]) => {
    if (rows.length === 0) return;
    const last = rows[rows.length - 1]!.state;
    pipeline.submit(receiver, plan.key, rows.map((r) => r.record), { state: Object.fromEntries(plan.fields.map((f, i) => [f.column_name, last[i]!])) });
    committed += rows.length;
  };
  /** Commits what is pending except the trailing rows that share the last row's state values. */
  const submitCompleteGroups = () => {
    let cut = pending.length;
    if (plan.fields.length > 0) while (cut > 0 && pending[cut - 1]!.tie === pending[pending.length - 1]!.tie) cut -= 1;
    const ready = pending.slice(0, cut);
    pending = pending.slice(cut);
    submit(ready);
  };

  const resolveLayout = (columns: readonly string[]) => {
    const missing: string[] = [];
    const stateIndexes = plan.fields.map((f) => findColumn(columns, f.column_name) ?? (missing.push(f.column_name), -1));
    const timestamp = plan.timestampColumn === undefined ? undefined : findColumn(columns, plan.timestampColumn);
    if (plan.timestampExplicit && timestamp === undefined) missing.push(`${plan.timestampColumn} (timestamp_column)`);
    if (missing.length > 0)
      throw new MissingColumnError(
        columns.length > 0
          ? say('sql.column_missing', 'The query\'s result has no column {missing}. Columns: {columns}. Select the state columns (alias them with AS if needed).', { missing: missing.join(', '), columns: columns.join(', ') })
          : say('sql.column_missing_no_columns', 'The query\'s result has no column {missing}. Columns: none. Select the state columns (alias them with AS if needed).', { missing: missing.join(', ') }),
      );
    return { names: uniqueNames(columns), state: stateIndexes, timestamp };
  };

  const result = await options.driver.read({
    statement: plan.statement,
    parameters,
    maxRows: options.maxRows,
    pageRows: PAGE_ROWS,
    onPage: (columns, rows) => {
      layout ??= resolveLayout(columns);
      const capturetime = isoMicros(clock.nowMicros());
      for (const row of rows) {
        state = plan.fields.map((f, i) => stateValueOf(f.data_type, row[layout!.state[i]!]!) ?? state[i]!);
        const fieldvalues: Record<string, FieldValue> = {};
        layout.names.forEach((name, i) => {
          const cell = row[i]!;
          if (isUnreadable(cell)) {
            const [column, problem] = [name, cell.problem];
            unreadable ??= {
              count: 0,
              first:
                plan.fields.length > 0
                  ? say('sql.json_unreadable_in_row', 'the row with {state}, column "{column}": a JSON value {problem}', { state: plan.fields.map((f, k) => `${f.column_name} = ${state[k]}`).join(', '), column, problem })
                  : say('sql.json_unreadable_at_row', 'row {row} of the poll, column "{column}": a JSON value {problem}', { row: rowIndex + 1, column, problem }),
            };
            unreadable.count += 1;
          }
          fieldvalues[name] = fieldValueOf(cell, timeZone);
        });
        const micros = layout.timestamp === undefined ? undefined : timestampMicros(row[layout.timestamp], timeZone);
        const tie = JSON.stringify(state);
        let recordId: string;
        if (plan.fields.length === 0) {
          recordId = hash([receiver, plan.key.asset, plan.key.stream_type, pollMicros, String(rowIndex)]);
        } else {
          // State values identify the row; its content and a counter tell apart rows that share them.
          const content = JSON.stringify(fieldvalues);
          const identity = `${tie}\0${content}`;
          const repeat = seen.get(identity) ?? 0;
          seen.set(identity, repeat + 1);
          recordId = hash([receiver, plan.key.asset, plan.key.stream_type, tie, content, String(repeat)]);
        }
        rowIndex += 1;
        pending.push({
          record: { asset: plan.key.asset, stream_type: plan.key.stream_type, timestamp: micros === undefined ? capturetime : isoMicros(micros), capturetime, fieldvalues, record_id: recordId },
          state,
          tie,
        });
      }
      if (pending.length >= PAGE_ROWS) submitCompleteGroups();
    },
  });

  let tiedPage = false;
  if (!result.limited || plan.fields.length === 0) {
    submit(pending);
  } else {
    // More rows may share the last state values beyond the limit: leave that group for the next poll.
    submitCompleteGroups();
    if (committed === 0 && pending.length > 0) {
      tiedPage = true;
      submit(pending);
    }
  }
  return { rows: result.rows, committed, limited: result.limited, tiedPage, ...(unreadable ? { unreadable } : {}) };
}
