/**
 * Test support for the SQL receiver: the throwaway PostgreSQL and MariaDB servers of
 * scripts/ci/start-postgres.sh and start-mariadb.sh, a direct client to seed them, and an agent
 * (real host, remotedatapost into an in-process ingest server) reading them.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { expect } from 'vitest';
import { type IngestServer, startIngestServer } from '../../ingest/ingest-server.js';
import { waitFor } from '../file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../test-host.js';

export type TestDialect = 'postgresql' | 'mysql';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const SERVERS = {
  postgresql: { port: 55432, username: 'tributary', password: 'tributary-pg-pass', database: 'tributary_test', script: 'scripts/ci/start-postgres.sh', product: 'PostgreSQL' },
  mysql: { port: 53306, username: 'tributary', password: 'tributary-my-pass', database: 'tributary_test', script: 'scripts/ci/start-mariadb.sh', product: 'MariaDB' },
} as const;

/** Column types that differ between the two servers. */
export const DDL = {
  postgresql: { id: 'bigserial PRIMARY KEY', datetime: 'timestamp(6)', text: 'text' },
  mysql: { id: 'bigint AUTO_INCREMENT PRIMARY KEY', datetime: 'datetime(6)', text: 'longtext' },
} as const;

/** Runs the server's start script with `--stop`, `--restart` or nothing (start). */
export function serverScript(dialect: TestDialect, option?: '--stop' | '--restart'): void {
  execFileSync('bash', [path.join(REPO, SERVERS[dialect].script), ...(option ? [option] : [])], { stdio: 'pipe', timeout: 60_000 });
}

/** A direct connection to a test database, to create and fill tables. */
export class TestDatabase {
  private constructor(
    readonly dialect: TestDialect,
    private readonly pgClient: pg.Client | undefined,
    private readonly myClient: mysql.Connection | undefined,
  ) {}

  /** Connects, or fails with what to run when the server is not there. */
  static async open(dialect: TestDialect): Promise<TestDatabase> {
    const s = SERVERS[dialect];
    try {
      if (dialect === 'postgresql') {
        const client = new pg.Client({ host: '127.0.0.1', port: s.port, user: s.username, password: s.password, database: s.database, connectionTimeoutMillis: 5000 });
        client.on('error', () => undefined);
        await client.connect();
        return new TestDatabase(dialect, client, undefined);
      }
      const client = await mysql.createConnection({ host: '127.0.0.1', port: s.port, user: s.username, password: s.password, database: s.database, connectTimeout: 5000, dateStrings: true, charset: 'UTF8MB4_UNICODE_CI' });
      client.on('error', () => undefined);
      return new TestDatabase(dialect, undefined, client);
    } catch (cause) {
      throw new Error(`The ${s.product} test server is not running on 127.0.0.1:${s.port} (${(cause as Error).message}): run bash ${s.script}`);
    }
  }

  /** Runs one statement; `?` markers in `sql` become $n for PostgreSQL. */
  async exec(sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
    if (this.pgClient) {
      let n = 0;
      return (await this.pgClient.query(sql.replace(/\?/g, () => `$${++n}`), values)).rows as Record<string, unknown>[];
    }
    const [rows] = await this.myClient!.query(sql, values);
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  }

  /** Inserts rows (all with the same keys) in batches. */
  async insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500);
      const columns = Object.keys(batch[0]!);
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      await this.exec(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}`, batch.flatMap((r) => columns.map((c) => r[c])));
    }
  }

  async tableExists(table: string): Promise<boolean> {
    const rows = this.pgClient
      ? await this.exec('SELECT 1 FROM information_schema.tables WHERE table_name = ?', [table])
      : await this.exec('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [table]);
    return rows.length > 0;
  }

  async close(): Promise<void> {
    await this.pgClient?.end().catch(() => undefined);
    await this.myClient?.end().catch(() => undefined);
  }
}

export const uniqueTable = (prefix: string) => `${prefix}_${crypto.randomBytes(4).toString('hex')}`;

export interface StreamOptions {
  asset?: string;
  stream_type?: string;
  query: string;
  state_fields?: { column_name: string; data_type: string; initial_value?: string | number }[];
  [key: string]: unknown;
}

/** A configuration with one sql receiver (and its connection overrides) and a remotedatapost transmit into `ingestUrl`. */
export function sqlConfiguration(
  dialect: TestDialect,
  ingestUrl: string,
  streams: StreamOptions[],
  options: { connection?: Record<string, unknown>; receiver?: Record<string, unknown>; name?: string; csv?: boolean } = {},
) {
  const s = SERVERS[dialect];
  return {
    data_receiver: [
      {
        data_receiver_name: options.name ?? 'mes',
        protocol: 'sql',
        poll_interval: 1,
        ...options.receiver,
        connections: [
          { host: '127.0.0.1', port: s.port, username: s.username, password: s.password, database_type: dialect, database_name: s.database, ssl: false, connect_timeout: 3, query_timeout: 20, ...options.connection },
        ],
        streams: streams.map((stream) => ({ asset: 'Line_1', stream_type: 'orders', state_fields: [], ...stream })),
      },
    ],
    transforms: [],
    // The csv transmit finishes what it writes when the host stops: a restart test sees every duplicate the receiver would make.
    data_transmit: options.csv
      ? [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], poll_interval: 1 }]
      : [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: ingestUrl, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 5, poll_interval: 1, max_request_records: 5000 }],
  };
}

const KEY_ID = 'sql_test@tributary.local';
const API_KEY = 'an-api-key-for-sql-tests';

/** A record as the ingest server decoded it. */
export interface DeliveredRecord {
  asset: string;
  stream_type: string;
  record_id: string;
  timestamp: Date;
  capturetime: Date;
  fieldvalues: Record<string, unknown>;
}

export interface Marker {
  component: string;
  asset: string;
  stream_type: string;
  category: string;
  level: string;
  message: string;
}

/** The agent (real host on a temp data dir) and the ingest server it uploads to. */
export class AgentUnderTest {
  server: TestServer | undefined;
  readonly dataDirectory = tempDirectory('tributary-sql-');

  private constructor(readonly ingest: IngestServer) {}

  static async create(): Promise<AgentUnderTest> {
    return new AgentUnderTest(await startIngestServer({ keys: { [KEY_ID]: API_KEY } }));
  }

  /** Starts the host on this data directory (again), and saves `config` when given. */
  async start(config?: unknown): Promise<TestServer> {
    this.server = await startTestServer({ dataDirectory: this.dataDirectory });
    if (config !== undefined) {
      const saved = await this.server.call('POST', '/v1/config', config);
      expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    }
    return this.server;
  }

  /** Records received for a stream (duplicates included), in arrival order. */
  records(streamType = 'orders'): DeliveredRecord[] {
    return this.ingest.records().filter((r) => r.stream_type === streamType) as unknown as DeliveredRecord[];
  }

  async waitForRecords(count: number, streamType = 'orders', ms = 30_000): Promise<DeliveredRecord[]> {
    return waitFor(() => this.records(streamType).length >= count && this.records(streamType), ms, `${count} ${streamType} records (have ${this.records(streamType).length})`);
  }

  /** Rows the csv transmit wrote for a stream, over all its files (values without commas or quotes only). */
  csvRows(streamType: string): Record<string, string>[] {
    const folder = path.join(this.dataDirectory, 'outbox');
    if (!fs.existsSync(folder)) return [];
    const prefix = `Line_1__${streamType}.`;
    const rows: Record<string, string>[] = [];
    for (const name of fs.readdirSync(folder).filter((n) => n.startsWith(prefix))) {
      const [header, ...lines] = fs.readFileSync(path.join(folder, name), 'utf8').trimEnd().split('\n');
      const columns = header!.split(',');
      for (const line of lines) rows.push(Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
    }
    return rows;
  }

  async markers(): Promise<Marker[]> {
    const streams = (await this.server!.call('GET', '/v1/streams')).json.response as { markers: Marker[] }[];
    return streams.flatMap((s) => s.markers);
  }

  async waitForMarker(category: string, streamType?: string, ms = 30_000): Promise<Marker> {
    return waitFor(async () => (await this.markers()).find((m) => m.category === category && (streamType === undefined || m.stream_type === streamType)), ms, `a ${category} marker`);
  }

  /** Waits until the outbox is empty (everything read is acknowledged by the ingest server). */
  async waitForEmptyOutbox(): Promise<void> {
    await waitFor(async () => (await this.server!.call('GET', '/v1/status')).json.response.last_data_transmit.cloud?.backlog_records === 0, 20_000, 'an empty outbox');
  }

  async stopHost(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  async close(): Promise<void> {
    await this.stopHost();
    await this.ingest.close();
  }
}

/** Asserts every record id is unique and returns the field values in arrival order. */
export function fieldsOf(records: DeliveredRecord[]): Record<string, unknown>[] {
  expect(new Set(records.map((r) => r.record_id)).size, 'duplicate record ids').toBe(records.length);
  return records.map((r) => r.fieldvalues);
}
