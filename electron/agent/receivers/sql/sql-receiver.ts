import type { z } from 'zod';
import type { SqlReceiverSchema } from '../../../../shared/config/schema.js';
import { sqlStatementProblem } from '../../../../shared/config/receivers/sql/rules.js';
import { streamId } from '../../../../shared/config/streams.js';
import type { Logger } from '../../logging/logger.js';
import { ReadSummary } from '../../logging/read-summary.js';
import type { StreamKey } from '../../components/contract.js';
import { BufferFullError } from '../../components/contract.js';
import type { AgentComponent, ComponentContext } from '../../components/contract.js';
import { PollingLoop } from '../../lifecycle/index.js';
import { MssqlDriver } from './mssql-driver.js';
import { MysqlDriver } from './mysql-driver.js';
import { PostgresDriver } from './postgres-driver.js';
import { CONNECTION_CATEGORIES, type SqlConnection, type SqlDriver, SqlError, connectionLabel, connectionLabelSaid, prepareStatement } from './sql-driver.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { MissingColumnError, type StreamPlan, pollStream } from './sql-poll.js';

export type SqlReceiverConfig = z.infer<typeof SqlReceiverSchema>;

/** Pause between polls while a stream has a backlog (its last poll hit max_rows_per_poll). */
const BACKLOG_PAUSE_MS = 200;
/** Reconnect backoff: 1 s, 2 s, 4 s … at most this. */
const MAX_BACKOFF_MS = 60_000;
const STREAM_CATEGORIES = ['query_failed', 'query_refused', 'column_missing', 'state_not_unique'] as const;

export function createSqlDriver(connection: SqlConnection, logger: Logger): SqlDriver {
  switch (connection.database_type) {
    case 'postgresql':
      return new PostgresDriver(connection, logger);
    case 'mysql':
      return new MysqlDriver(connection, logger);
    case 'mssql':
      return new MssqlDriver(connection, logger);
  }
}

/**
 * The marker of a connection that failed, as the running receiver says it: the driver's problem
 * and the next attempt. A connection that cannot be reached or secured (not a refused login or a
 * missing database, which need a fix of the configuration or the server) says that Tributary keeps
 * trying: the receiver's words, not the driver's, so a preview of the same problem does not claim it.
 */
export function retrySaid(problem: SqlError, seconds: number): AgentMessage {
  return problem.category === 'connect_failed' || problem.category === 'tls_failed'
    ? say('sql.keeps_trying', '{problem} Tributary keeps trying. Next attempt in {seconds} s.', { problem: problem.said, seconds })
    : say('sql.retry', '{problem} Next attempt in {seconds} s.', { problem: problem.said, seconds });
}

interface Slot {
  connection: SqlConnection;
  label: string;
  driver: SqlDriver | undefined;
  streams: PlannedStream[];
  failures: number;
  /** Category of the connection problem currently marked, if any. */
  down: string | undefined;
}

interface PlannedStream {
  plan: StreamPlan;
  /** Why the query is refused before it is sent (several statements, not a SELECT …). */
  refused: AgentMessage | undefined;
  dueAt: number;
}

/**
 * Reads new rows of MS SQL Server, PostgreSQL and MySQL/MariaDB tables: one query per stream, run
 * every `poll_interval` with the last committed values of its state fields bound to its
 * placeholders. One pooled connection per configured connection; streams of a receiver are polled
 * one after the other, so the database sees at most one query of this receiver at a time.
 */
export class SqlReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly slots: Slot[];
  private loop: PollingLoop | undefined;
  /** Rows per stream, logged as a summary per minute rather than a line per poll. */
  private readonly reads = new ReadSummary('row');
  /** Streams whose last poll hit max_rows_per_poll: reading a backlog, said once when it starts and ends. */
  private readonly backlogs = new Set<string>();

  constructor(
    private readonly config: SqlReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    this.slots = config.connections.map((connection) => ({ connection, label: connectionLabel(connection), driver: undefined, streams: [], failures: 0, down: undefined }));
    for (const s of config.streams) {
      const slot = s.connection === undefined ? this.slots[0]! : this.slots.find((x) => x.connection.connection_name === s.connection);
      if (!slot) continue; // refused by validation
      const dialect = slot.connection.database_type;
      const timestampColumn = s.timestamp_column ?? s.state_fields.find((f) => f.data_type === 'datetime')?.column_name;
      slot.streams.push({
        plan: {
          key: { asset: s.asset, stream_type: s.stream_type },
          fields: s.state_fields,
          statement: prepareStatement(s.query, dialect, s.state_fields),
          timestampExplicit: s.timestamp_column !== undefined,
          ...(timestampColumn === undefined ? {} : { timestampColumn }),
        },
        refused: sqlStatementProblem(s.query, dialect),
        dueAt: 0,
      });
    }
  }

  /** Running while this start's polling loop is not disposed. */
  private get running(): boolean {
    return this.loop !== undefined && !this.loop.disposed;
  }

  async start(): Promise<void> {
    for (const slot of this.slots) for (const s of slot.streams) s.dueAt = 0;
    this.loop = new PollingLoop({
      step: () => this.step(),
      intervalMs: () => this.config.poll_interval * 1000,
      onError: (cause) => this.context.logger.error(`Polling failed: ${(cause as Error).message}`),
    });
    this.loop.schedule(0);
  }

  async stop(): Promise<void> {
    const polling = this.loop?.dispose();
    // Closing the pools aborts a running query; what it had committed stays committed.
    await Promise.all(this.slots.map((slot) => this.dropDriver(slot)));
    await polling;
    this.reads.flush(true);
  }

  /** `unknown` while no connection of this receiver works (it runs and retries; the markers say why). */
  status() {
    if (!this.running) return 'stopped' as const;
    return this.slots.every((slot) => slot.down !== undefined) ? ('unknown' as const) : ('running' as const);
  }

  async purge(_streams: readonly StreamKey[]): Promise<void> {
    // State lives only in the agent store (purged by the supervisor); each poll reads it afresh.
  }

  /** One round over the due streams; the next one when the earliest stream is due again. */
  private async step(): Promise<number | void> {
    try {
      await this.round();
    } finally {
      this.reads.flush(false);
    }
    const next = Math.min(...this.slots.flatMap((slot) => slot.streams.map((s) => s.dueAt)));
    return Number.isFinite(next) ? Math.max(0, next - Date.now()) : undefined;
  }

  private async round(): Promise<void> {
    for (const slot of this.slots) {
      for (const stream of slot.streams) {
        if (!this.running) return;
        if (stream.dueAt > Date.now()) continue;
        if (!(await this.poll(slot, stream))) break; // the connection is down: its other streams wait too
      }
    }
  }

  /** Polls one stream; false when the connection failed. */
  private async poll(slot: Slot, stream: PlannedStream): Promise<boolean> {
    const { markers, logger } = this.context;
    const key = stream.plan.key;
    const id = streamId(key.asset, key.stream_type);
    const interval = this.config.poll_interval * 1000;
    if (stream.refused) {
      if (stream.dueAt === 0) {
        const said = say('sql.query_refused', '{problem} The query is not sent to {label}.', { problem: stream.refused, label: connectionLabelSaid(slot.connection) });
        markers.raise([key], 'error', 'query_refused', said);
        logger.error(`${id}: ${said.text}`);
      }
      stream.dueAt = Number.POSITIVE_INFINITY;
      return true;
    }
    try {
      slot.driver ??= createSqlDriver(slot.connection, logger);
      const outcome = await pollStream({
        receiver: this.name,
        plan: stream.plan,
        driver: slot.driver,
        context: this.context,
        maxRows: this.config.max_rows_per_poll,
        timeZone: slot.connection.timezone ?? 'UTC',
      });
      if (!this.running) return true;
      this.connectionUp(slot);
      for (const category of STREAM_CATEGORIES) if (category !== 'state_not_unique' || !outcome.tiedPage) markers.clear(category, [key]);
      if (outcome.tiedPage) {
        const said = say(
          'sql.state_not_unique',
          'All {rows} rows of a poll share the same state values ({columns}); they were sent, but rows with the same values beyond them may be skipped. Raise max_rows_per_poll or add a unique column (such as an id) to state_fields.',
          { rows: outcome.rows, columns: stream.plan.fields.map((f) => f.column_name).join(', ') },
        );
        markers.raise([key], 'warning', 'state_not_unique', said);
        logger.warn(`${id}: ${said.text}`);
      }
      if (outcome.unreadable) {
        const { count, first } = outcome.unreadable;
        const said =
          count === 1
            ? say('sql.value_unreadable', 'A value could not be kept and was stored as null (the rows were read): {first}.', { first })
            : say('sql.values_unreadable', '{count} values could not be kept and were stored as null (the rows were read): {first}.', { count, first });
        markers.raise([key], 'warning', 'value_unreadable', said);
        logger.warn(`${id}: ${said.text}`);
      }
      this.reads.note(id, outcome.committed, logger);
      if (outcome.limited && !this.backlogs.has(id)) {
        this.backlogs.add(id);
        logger.info(`${id}: a backlog is waiting (max_rows_per_poll ${this.config.max_rows_per_poll} reached: reading on in polls of ${this.config.max_rows_per_poll} rows)`);
      } else if (!outcome.limited && this.backlogs.delete(id)) logger.info(`${id}: the backlog is read; polling every ${this.config.poll_interval} s again`);
      stream.dueAt = Date.now() + (outcome.limited ? BACKLOG_PAUSE_MS : interval);
      return true;
    } catch (cause) {
      if (!this.running) return true;
      stream.dueAt = Date.now() + interval;
      if (cause instanceof BufferFullError) return true; // marked by the pipeline; the rows wait in the database
      if (cause instanceof MissingColumnError) {
        markers.raise([key], 'error', 'column_missing', cause.said);
        logger.error(`${id}: ${cause.message}`);
        return true;
      }
      const problem = cause instanceof SqlError ? cause : new SqlError('query_failed', say('sql.reading_failed', 'Reading failed: {error}. Tried again every poll.', { error: (cause as Error).message }));
      if (!problem.connectionLevel) {
        markers.raise([key], 'error', 'query_failed', problem.said);
        // Not the database's answer but an exception of ours: its stack says where.
        logger.error(`${id}: ${problem.message}`, cause instanceof SqlError ? undefined : cause);
        return true;
      }
      await this.connectionDown(slot, problem);
      return false;
    }
  }

  private connectionUp(slot: Slot): void {
    if (slot.failures === 0 && slot.down === undefined) return;
    if (slot.down) this.context.logger.info(`Connected to ${slot.label} again`);
    slot.failures = 0;
    slot.down = undefined;
    const keys = slot.streams.map((s) => s.plan.key);
    for (const category of CONNECTION_CATEGORIES) this.context.markers.clear(category, keys);
  }

  private async connectionDown(slot: Slot, problem: SqlError): Promise<void> {
    slot.failures += 1;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (slot.failures - 1));
    const keys = slot.streams.map((s) => s.plan.key);
    for (const category of CONNECTION_CATEGORIES) if (category !== problem.category) this.context.markers.clear(category, keys);
    const said = retrySaid(problem, Math.round(delay / 1000));
    this.context.markers.raise(keys, 'error', problem.category, said);
    this.context.logger.warn(said.text);
    slot.down = problem.category;
    for (const s of slot.streams) if (Number.isFinite(s.dueAt)) s.dueAt = Date.now() + delay;
    // A fresh pool on the next attempt: no half-open connection or failed login is reused.
    await this.dropDriver(slot);
  }

  private async dropDriver(slot: Slot): Promise<void> {
    const driver = slot.driver;
    slot.driver = undefined;
    await driver?.close().catch((cause) => this.context.logger.warn(`Closing the connection to ${slot.label} failed: ${(cause as Error).message}`));
  }
}
