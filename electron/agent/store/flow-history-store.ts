import { openSideDatabase } from './side-database.js';

/** Records read in one minute by one stream of one receiver. */
export interface StreamMinute {
  minute: number;
  receiver: string;
  asset: string;
  stream_type: string;
  records: number;
}

/** Records delivered in one minute by one transmit, and its backlog at the end of that minute. */
export interface TransmitMinute {
  minute: number;
  transmit: string;
  records_out: number;
  backlog_records: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS stream_minutes (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, minute INTEGER NOT NULL, records INTEGER NOT NULL,
  PRIMARY KEY (receiver, asset, stream_type, minute)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS stream_minutes_by_minute ON stream_minutes (minute);
CREATE TABLE IF NOT EXISTS transmit_minutes (
  transmit TEXT NOT NULL, minute INTEGER NOT NULL, records_out INTEGER NOT NULL, backlog_records INTEGER NOT NULL,
  PRIMARY KEY (transmit, minute)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS transmit_minutes_by_minute ON transmit_minutes (minute);
`;

function open(file: string) {
  // A chart, not data to deliver: a power cut may cost the last minute, never the agent's speed.
  const db = openSideDatabase(file, SCHEMA, 2000);
  const statements = {
    // A minute written before a restart goes on counting after it.
    addStream: db.prepare(`INSERT INTO stream_minutes (receiver, asset, stream_type, minute, records) VALUES (@receiver, @asset, @stream_type, @minute, @records)
      ON CONFLICT (receiver, asset, stream_type, minute) DO UPDATE SET records = records + excluded.records`),
    addTransmit: db.prepare(`INSERT INTO transmit_minutes (transmit, minute, records_out, backlog_records) VALUES (@transmit, @minute, @records_out, @backlog_records)
      ON CONFLICT (transmit, minute) DO UPDATE SET records_out = records_out + excluded.records_out, backlog_records = excluded.backlog_records`),
    streamsFrom: db.prepare('SELECT receiver, asset, stream_type, minute, records FROM stream_minutes WHERE minute >= ? ORDER BY minute'),
    transmitsFrom: db.prepare('SELECT transmit, minute, records_out, backlog_records FROM transmit_minutes WHERE minute >= ? ORDER BY minute'),
    // A stream's newest minutes with records, from the primary key.
    recentMinutes: db.prepare('SELECT minute FROM stream_minutes WHERE receiver = ? AND asset = ? AND stream_type = ? ORDER BY minute DESC LIMIT ?'),
    pruneStreams: db.prepare('DELETE FROM stream_minutes WHERE minute < ?'),
    pruneTransmits: db.prepare('DELETE FROM transmit_minutes WHERE minute < ?'),
  };
  const write = db.transaction((streams: readonly StreamMinute[], transmits: readonly TransmitMinute[], pruneBefore: number) => {
    for (const row of streams) statements.addStream.run(row);
    for (const row of transmits) statements.addTransmit.run(row);
    statements.pruneStreams.run(pruneBefore);
    statements.pruneTransmits.run(pruneBefore);
  });
  return { db, statements, write };
}

/**
 * The per-minute history of the data flow (state/flow-history.db, SQLite): records in per stream,
 * records out and backlog per transmit, for charts that survive a reload and a restart. Its own
 * database file, apart from the outbox: written once a minute, it never waits on a commit of the
 * data path, and a problem with it never stops one (docs/decisions/0021-data-flow-stats.md).
 */
export class FlowHistoryStore {
  private opened: ReturnType<typeof open> | undefined;

  constructor(readonly file: string) {}

  private handle(): ReturnType<typeof open> {
    this.opened ??= open(this.file);
    return this.opened;
  }

  /** Adds minutes (counts add up; a transmit's backlog is replaced) and forgets minutes before `pruneBefore`. */
  write(streams: readonly StreamMinute[], transmits: readonly TransmitMinute[], pruneBefore: number): void {
    this.handle().write(streams, transmits, pruneBefore);
  }

  /** Every minute from `fromMinute` on, oldest first. */
  read(fromMinute: number): { streams: StreamMinute[]; transmits: TransmitMinute[] } {
    const { statements } = this.handle();
    return { streams: statements.streamsFrom.all(fromMinute) as StreamMinute[], transmits: statements.transmitsFrom.all(fromMinute) as TransmitMinute[] };
  }

  /** The newest `limit` minutes in which a stream read records, oldest first. */
  recentMinutes(receiver: string, asset: string, streamType: string, limit: number): number[] {
    const rows = this.handle().statements.recentMinutes.all(receiver, asset, streamType, limit) as { minute: number }[];
    return rows.map((row) => row.minute).reverse();
  }

  close(): void {
    if (this.opened?.db.open) this.opened.db.close();
    this.opened = undefined;
  }
}
