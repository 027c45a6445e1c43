import type { AgentRecord } from '../../../../shared/records/record.js';
import { say } from '../../../../shared/config/message.js';
import type { ComponentContext, OutboxBatch, StreamKey } from '../../components/contract.js';
import { RECORDS_JSON } from '../../components/records-json-codec.js';
import { DrainingTransmit, type RoundOutcome } from '../draining-transmit.js';
import { type SqlSession, type SqlTransmitConfig, SqlWriteError, DOING, explain, openSession } from './sql-session.js';
import {
  type ColumnType,
  type Dialect,
  addColumn,
  columnNameProblem,
  columnTypeOf,
  columnTypeOfDatabase,
  columnsQuery,
  JSON_COLUMNS,
  createJsonTable,
  createWideTable,
  fitValue,
  insertJsonRecords,
  insertSkippingKnown,
  joinedJsonArrays,
  recordsetJson,
  maxRowsPerStatement,
  timeValue,
  wideTableName,
} from './sql-text.js';

export type { SqlTransmitConfig } from './sql-session.js';

const BATCHES_PER_ROUND = 200;
const CATEGORIES = ['connect_failed', 'auth_failed', 'permission_denied', 'write_failed'] as const;

interface WideTable {
  name: string;
  columns: Map<string, ColumnType>;
}

/** Values that did not fit their column, or fields that cannot be columns, per stream, this round. */
interface Unfit {
  stream: StreamKey;
  what: string;
  count: number;
  /** A whole record the database refused (set aside), not a value written as NULL. */
  refused?: boolean;
}

/**
 * Writes records into a table of the plant's database (docs/sql-transmit.md). Each round is one
 * transaction; its batches leave the outbox only after the commit, and a record_id the table has is
 * skipped: a kill -9 between the commit and the acknowledgement, a restart of the database or a lost
 * connection loses nothing and duplicates nothing.
 */
export class SqlTransmit extends DrainingTransmit {
  private session: SqlSession | undefined;
  private jsonTableReady = false;
  private readonly wide = new Map<string, WideTable>();

  constructor(
    private readonly config: SqlTransmitConfig,
    context: ComponentContext,
  ) {
    super(config.transmit_name, context, config.poll_interval);
  }

  protected async round(): Promise<RoundOutcome> {
    const batches = this.nextBatches();
    if (batches.length === 0) return 'empty';
    try {
      const session = (this.session ??= await openSession(this.config).catch((cause: unknown) => {
        throw explain(cause, this.config, DOING.connect());
      }));
      const unfit = await this.write(session, batches).catch((cause: unknown) => {
        if (!(cause instanceof SqlWriteError && cause.refusedValue)) throw cause;
        return this.writeSplitting(session, this.decoded(batches));
      });
      await this.context.store.ackWhenFree(this.name, batches.map((b) => b.id));
      this.delivered(batches.reduce((n, b) => n + b.records, 0), batches.reduce((n, b) => n + b.bytes, 0), unfit);
    } catch (cause) {
      await this.drop();
      return this.failedRound(cause);
    }
    return 'delivered';
  }

  protected override stopped(): Promise<void> {
    return this.drop();
  }

  /** The oldest batches, up to batch_records records (at least one batch). */
  private nextBatches(): OutboxBatch[] {
    const meta = this.context.store.peekMeta(this.name, BATCHES_PER_ROUND);
    let records = 0;
    let take = 0;
    for (const batch of meta) {
      if (take > 0 && records + batch.records > this.config.batch_records) break;
      records += batch.records;
      take += 1;
    }
    return take === 0 ? [] : this.context.store.peek(this.name, take);
  }

  private write(session: SqlSession, batches: readonly OutboxBatch[]): Promise<Unfit[]> {
    return this.config.layout === 'wide' ? this.writeWide(session, this.decoded(batches)) : this.writeJson(session, batches);
  }

  /**
   * A round the database refused for a value (a NUL character in a text, say): written in halves,
   * each its own transaction, until the refused records stand alone. Those are set aside, counted
   * and marked with the database's words; the others are written (a half written twice adds
   * nothing: record_id). Anything else that fails ends the round as usual.
   */
  private async writeSplitting(session: SqlSession, records: AgentRecord[]): Promise<Unfit[]> {
    const unfit: Unfit[] = [];
    const refused = new Map<string, Unfit>();
    const split = async (part: AgentRecord[]): Promise<void> => {
      try {
        unfit.push(...(this.config.layout === 'wide' ? await this.writeWide(session, part) : await this.writeJsonRecords(session, part)));
      } catch (cause) {
        if (!(cause instanceof SqlWriteError && cause.refusedValue)) throw cause;
        if (part.length === 1) {
          const { asset, stream_type, timestamp } = part[0]!;
          const key = `${asset}\0${stream_type}\0${cause.message}`;
          const found = refused.get(key);
          if (found) found.count += 1;
          else refused.set(key, { stream: { asset, stream_type }, what: `${cause.message} (first: the record of ${timestamp})`, count: 1, refused: true });
          return;
        }
        const half = Math.ceil(part.length / 2);
        await split(part.slice(0, half));
        await split(part.slice(half));
      }
    };
    await split(records);
    return [...unfit, ...refused.values()];
  }

  private decoded(batches: readonly OutboxBatch[]): AgentRecord[] {
    return batches.flatMap((batch) => this.context.decodeBatch(batch.format, batch.payload));
  }

  private async writeJson(session: SqlSession, batches: readonly OutboxBatch[]): Promise<Unfit[]> {
    const { dialect } = session;
    const table = this.config.table;
    if (!this.jsonTableReady) {
      await this.ensureTable(session, table, createJsonTable(dialect, table));
      this.jsonTableReady = true;
    }
    if (dialect === 'postgresql' && batches.every((b) => b.format === RECORDS_JSON.format)) {
      // The outbox holds the records as JSON arrays: PostgreSQL reads them as they are.
      const records = joinedJsonArrays(batches.map((b) => b.payload));
      await session.transaction(() => session.run(insertJsonRecords(table), [records]).then(() => undefined)).catch((cause: unknown) => {
        throw explain(cause, this.config, DOING.insert(String(table)));
      });
      return [];
    }
    return this.writeJsonRecords(session, this.decoded(batches));
  }

  private async writeJsonRecords(session: SqlSession, records: AgentRecord[]): Promise<Unfit[]> {
    const { dialect } = session;
    const table = this.config.table;
    const rows = records.map((r) => [r.record_id, r.asset, r.stream_type, timeValue(dialect, r.timestamp), JSON.stringify(r.fieldvalues)]);
    await session.transaction(() => this.insert(session, table, JSON_COLUMNS, rows)).catch((cause: unknown) => {
      throw explain(cause, this.config, DOING.insert(String(table)));
    });
    return [];
  }

  private async writeWide(session: SqlSession, records: AgentRecord[]): Promise<Unfit[]> {
    const { dialect } = session;
    const unfit = new Map<string, Unfit>();
    const note = (record: AgentRecord, what: string) => {
      const key = `${record.asset}\0${record.stream_type}\0${what}`;
      const found = unfit.get(key);
      if (found) found.count += 1;
      else unfit.set(key, { stream: { asset: record.asset, stream_type: record.stream_type }, what, count: 1 });
    };
    const byTable = new Map<WideTable, AgentRecord[]>();
    for (const record of records) {
      const table = await this.wideTable(session, record.stream_type);
      let list = byTable.get(table);
      if (!list) byTable.set(table, (list = []));
      list.push(record);
      for (const [field, value] of Object.entries(record.fieldvalues)) {
        if (table.columns.has(field)) continue;
        const problem = columnNameProblem(field);
        const type = columnTypeOf(value);
        if (problem) note(record, `field "${field.slice(0, 80)}" has no column in ${table.name} (${problem})`);
        else if (type) await this.addWideColumn(session, table, field, type);
      }
    }
    await session.transaction(async () => {
      for (const [table, list] of byTable) {
        const fields = [...table.columns.keys()];
        const columns = [
          { name: 'record_id', type: 'key' as const },
          { name: 'asset', type: 'name' as const },
          { name: 'timestamp', type: 'time' as const },
          ...fields.map((name) => ({ name, type: table.columns.get(name)! })),
        ];
        const rows = list.map((record) => [
          record.record_id,
          record.asset,
          timeValue(dialect, record.timestamp),
          ...fields.map((field) => {
            const value = fitValue(table.columns.get(field)!, record.fieldvalues[field]);
            if (value !== undefined) return value;
            note(record, `field "${field}" did not fit its column (${table.columns.get(field)}) in ${table.name}`);
            return null;
          }),
        ]);
        await this.insert(session, table.name, columns, rows);
      }
    }).catch((cause: unknown) => {
      throw explain(cause, this.config, DOING.insert([...byTable.keys()].map((t) => t.name).join(', ')));
    });
    return [...unfit.values()];
  }

  /** A wide table by stream type: created when missing, its columns read once. */
  private async wideTable(session: SqlSession, streamType: string): Promise<WideTable> {
    const name = wideTableName(this.config.table, streamType);
    const known = this.wide.get(name);
    if (known) return known;
    const rows = await this.ensureTable(session, name, createWideTable(session.dialect, name, new Map()));
    const columns = new Map<string, ColumnType>();
    for (const row of rows) {
      const column = String(row.column_name);
      if (['record_id', 'asset', 'timestamp'].includes(column.toLowerCase())) continue;
      columns.set(column, columnTypeOfDatabase(String(row.data_type)));
    }
    const table = { name, columns };
    this.wide.set(name, table);
    return table;
  }

  /**
   * The table's columns, after creating it when it has none. Asked first: PostgreSQL refuses CREATE
   * TABLE IF NOT EXISTS to a user without CREATE even when the table exists (a DBA made it).
   */
  private async ensureTable(session: SqlSession, name: string, create: string): Promise<Record<string, unknown>[]> {
    const columns = () => session.run(columnsQuery(session.dialect), [name]);
    const found = await columns();
    if (found.length > 0) return found;
    await session.run(create).catch((cause: unknown) => {
      throw explain(cause, this.config, DOING.create(name), true);
    });
    return columns();
  }

  private async addWideColumn(session: SqlSession, table: WideTable, column: string, type: ColumnType): Promise<void> {
    await session.run(addColumn(session.dialect, table.name, column, type)).catch(async (cause: unknown) => {
      // Another writer may have added it meanwhile: look again before calling it a failure.
      const now = await session.run(columnsQuery(session.dialect), [table.name]);
      if (!now.some((row) => String(row.column_name) === column)) throw explain(cause, this.config, DOING.addColumn(column, table.name), true);
    });
    table.columns.set(column, type);
  }

  private async insert(session: SqlSession, table: string, columns: Parameters<typeof insertSkippingKnown>[2], rows: unknown[][]): Promise<void> {
    if (rows.length === 0) return;
    const dialect: Dialect = session.dialect;
    if (dialect === 'postgresql') {
      // One JSON parameter: any number of rows in one statement.
      await session.run(insertSkippingKnown(dialect, table, columns, rows.length), [recordsetJson(columns, rows)]);
      return;
    }
    const step = maxRowsPerStatement(dialect, columns.length);
    for (let start = 0; start < rows.length; start += step) {
      const part = rows.slice(start, start + step);
      await session.run(insertSkippingKnown(dialect, table, columns, part.length), part.flat());
    }
  }

  private delivered(records: number, bytes: number, unfit: Unfit[]): void {
    this.succeeded();
    this.context.stats.success(this.name, records, bytes);
    for (const category of CATEGORIES) this.context.markers.clear(category);
    for (const { stream, what, count, refused } of unfit) {
      const said = refused
        ? say('sql.records_set_aside', '{count} record(s) set aside, the others were written: {what}', { count, what })
        : say('sql.values_unfit', '{count} value(s) written as NULL or left out: {what}.', { count, what });
      this.context.markers.raise([stream], 'warning', refused ? 'record_refused' : 'value_unfit', said);
      this.context.logger.warn(`${stream.asset}:${stream.stream_type}: ${said.text}`);
    }
  }

  protected failed(cause: unknown): void {
    const error = cause instanceof SqlWriteError ? cause : explain(cause, this.config, DOING.write());
    this.report(error.category, error.said);
  }

  private async drop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.jsonTableReady = false;
    this.wide.clear();
    await session?.close();
  }
}


