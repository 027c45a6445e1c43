import fs from 'node:fs';
import { say } from '../../../../shared/config/message.js';
import path from 'node:path';
import { promisify } from 'node:util';
import type { z } from 'zod';
import type { CsvTransmitSchema } from '../../../../shared/config/schema.js';
import type { ComponentContext } from '../../components/contract.js';
import { type StorageHealth, describeWriteFailure, isDiskFull } from '../../disk/storage-health.js';
import type { WritePolicy } from '../../disk/write-policy.js';
import { DrainingTransmit, type RoundOutcome } from '../draining-transmit.js';
import { cell } from './csv-cells.js';
import { CSV_OUTBOX, ColumnLists, type OutboxSegment, readSegments, segmentLines, toSegments, valueSegments } from './csv-outbox.js';

export type CsvTransmitConfig = z.infer<typeof CsvTransmitSchema>;

const FIXED_COLUMNS = ['timestamp', 'capturetime', 'record_id'] as const;
const BATCHES_PER_ROUND = 50;
/** Output files may be read by the plant's group (archiving jobs), never by everyone. */
const FILE_MODE = 0o640;

const fsync = promisify(fs.fsync);

const safeName = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

interface OpenFile {
  file: string;
  columns: string[];
  /** The same names, looked up: a record of 400 columns checked with `includes` cost 80,000 comparisons. */
  known: Set<string>;
  size: number;
}

/** The files one round wrote to, so that a failed round can be taken back whole. */
interface Round {
  /** Descriptor and size before this round, per file appended to. */
  appended: Map<string, { fd: number; before: number }>;
  /** Files this round created. */
  created: string[];
}

/**
 * Appends records to CSV files, one series per stream (`<asset>__<stream_type>[.n].csv`). A batch
 * leaves the outbox only after its rows are written and flushed to disk. A record with columns the
 * current file has no header for starts a new file, as does reaching max_file_bytes.
 *
 * A round either writes all its rows and removes them from the outbox, or leaves the files as they
 * were: a full disk or a failed outbox update cuts files back to their size before the round and
 * removes the files it created, so a retry never leaves half a row or the same rows twice.
 */
export class CsvTransmit extends DrainingTransmit {
  private readonly directory: string;
  private files = new Map<string, OpenFile>();
  /** The column lists of the batches read (a machine sends the same ones every second). */
  private readonly columnLists = new ColumnLists();
  private readonly area: string;
  private lastRefusal: string | undefined;

  constructor(
    private readonly config: CsvTransmitConfig,
    context: ComponentContext,
    private readonly services?: { storage?: StorageHealth; writePolicy?: WritePolicy },
  ) {
    super(config.transmit_name, context, config.poll_interval);
    this.directory = path.resolve(context.agentDataDirectory, config.directory ?? 'outbox');
    this.area = `output:${this.name}`;
  }

  /** One round of at most BATCHES_PER_ROUND batches; a refused or failed round backs off for the poll interval. */
  protected async round(): Promise<RoundOutcome> {
    const backoff = { backoffMs: this.config.poll_interval * 1000 };
    const round: Round = { appended: new Map(), created: [] };
    const before = new Map([...this.files].map(([key, open]) => [key, { ...open }]));
    try {
      const batches = this.context.store.peek(this.name, BATCHES_PER_ROUND);
      if (batches.length === 0) return 'empty';
      const refused = this.services?.writePolicy?.refuse(this.directory);
      if (refused) {
        this.refused(refused);
        return backoff;
      }
      // Created here, not at start: a folder that cannot be created yet (full disk) is retried.
      fs.mkdirSync(this.directory, { recursive: true, mode: 0o750 });
      let bytes = 0;
      let records = 0;
      for (const batch of batches) {
        // Batches stored as CSV lines are written as they are; others (older formats) from their records.
        const segments = batch.format === CSV_OUTBOX.format ? readSegments(batch.payload, this.columnLists) : valueSegments(toSegments(this.context.decodeBatch(batch.format, batch.payload)));
        for (const segment of segments) {
          bytes += this.append(segment, round);
          records += segment.rows;
        }
      }
      // On the thread pool, all files at once: ~0.2 ms each, 100 files a second at 20,000 OPC UA
      // tags were ~22 ms a second of the main thread blocked (values waited to be read meanwhile).
      await Promise.all([...round.appended.values()].map(({ fd }) => fsync(fd)));
      await this.context.store.ackWhenFree(this.name, batches.map((b) => b.id));
      this.closeAll(round);
      this.context.stats.success(this.name, records, bytes);
      this.context.markers.clear('write_failed');
      this.context.markers.clear('write_refused');
      this.lastRefusal = undefined;
      if (this.services?.storage?.problem(this.area)) this.services.storage.resolve(this.area);
    } catch (cause) {
      this.takeBack(round);
      this.files = before;
      this.failed(cause);
      return backoff;
    }
    return 'delivered';
  }

  /** The folder is off limits (path policy): nothing is written, the records wait in the outbox. */
  private refused(reason: string): void {
    const said = say('csv.not_written', 'CSV files are not written: {reason} The records stay queued.', { reason });
    const message = said.text;
    this.context.stats.failure(this.name, said);
    this.context.markers.raise(this.context.streams, 'error', 'write_refused', said);
    if (message !== this.lastRefusal) this.context.logger.error(message);
    this.lastRefusal = message;
  }

  /** Unlike the database transmits, every failure is logged (a full disk says where each time). */
  protected failed(cause: unknown): void {
    const full = isDiskFull(cause);
    const problem = full ? describeWriteFailure(cause, this.directory, 'CSV files') : say('csv.write_failed', 'Writing CSV files to {folder} failed: {error}.', { folder: this.directory, error: (cause as Error).message });
    const said = say('csv.kept_queued', '{problem} The records stay queued and are written when it works again.', { problem });
    if (full) this.services?.storage?.report(this.area, this.directory, cause, 'CSV files');
    this.context.stats.failure(this.name, said);
    this.context.markers.raise(this.context.streams, 'error', 'write_failed', said);
    this.context.logger.error(said.text);
  }

  /** Cuts every file back to its size before the round and removes the files it created. */
  private takeBack(round: Round): void {
    for (const { fd, before } of round.appended.values()) {
      try {
        fs.ftruncateSync(fd, before);
      } catch {
        // Left as it is; the next round starts a new file if the columns no longer fit.
      }
    }
    this.closeAll(round);
    for (const file of round.created) fs.rmSync(file, { force: true });
  }

  private closeAll(round: Round): void {
    for (const { fd } of round.appended.values()) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed or the disk is gone: nothing else to do with it.
      }
    }
    round.appended.clear();
  }

  /**
   * Appends one segment's rows (csv-outbox.ts) to the stream's file, or to a new one when the file
   * lacks one of its columns or is full; returns bytes written.
   */
  private append(segment: OutboxSegment, round: Round): number {
    const { asset, streamType, columns } = segment;
    const key = `${asset}\0${streamType}`;
    let written = 0;
    let target = this.files.get(key);
    // The file's own list (the same batch columns again) needs no look at each name.
    const fits = target && (target.columns === columns || columns.every((c) => target!.known.has(c))) && target.size < this.config.max_file_bytes;
    if (!target || !fits) {
      target = this.newFile(asset, streamType, columns, round);
      this.files.set(key, target);
      written += target.size;
    }
    if (segment.rows === 0) return written;
    const text = segmentLines(segment, target.columns);
    let open = round.appended.get(target.file);
    if (!open) {
      const fd = fs.openSync(target.file, 'a', FILE_MODE);
      open = { fd, before: fs.fstatSync(fd).size };
      round.appended.set(target.file, open);
    }
    let done = 0;
    while (done < text.length) done += fs.writeSync(open.fd, text, done, text.length - done);
    target.size += text.length;
    return written + text.length;
  }

  private newFile(asset: string, streamType: string, columns: string[], round: Round): OpenFile {
    const base = `${safeName(asset)}__${safeName(streamType)}`;
    let n = 0;
    let file = path.join(this.directory, `${base}.csv`);
    while (fs.existsSync(file)) file = path.join(this.directory, `${base}.${++n}.csv`);
    const header = `${[...FIXED_COLUMNS, ...columns].map((c) => cell(c)).join(',')}\n`;
    round.created.push(file);
    fs.writeFileSync(file, header, { mode: FILE_MODE, flag: 'wx' });
    return { file, columns, known: new Set(columns), size: Buffer.byteLength(header) };
  }
}
