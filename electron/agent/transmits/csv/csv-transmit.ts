import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { CsvTransmitSchema } from '../../../../shared/config/schema.js';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import type { AgentComponent, ComponentContext } from '../../components/contract.js';

export type CsvTransmitConfig = z.infer<typeof CsvTransmitSchema>;

const FIXED_COLUMNS = ['timestamp', 'capturetime', 'record_id'] as const;
const BATCHES_PER_ROUND = 50;

function cell(value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const safeName = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

interface OpenFile {
  file: string;
  columns: string[];
  size: number;
}

/**
 * Appends records to CSV files, one series per stream (`<asset>__<stream_type>[.n].csv`). A batch
 * leaves the outbox only after its rows are written and flushed to disk. A record with columns the
 * current file has no header for starts a new file, as does reaching max_file_bytes.
 */
export class CsvTransmit implements AgentComponent {
  readonly kind = 'Transmit' as const;
  readonly name: string;
  private readonly directory: string;
  private readonly files = new Map<string, OpenFile>();
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly config: CsvTransmitConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.transmit_name;
    this.directory = path.resolve(context.agentDataDirectory, config.directory ?? 'outbox');
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.directory, { recursive: true });
    this.running = true;
    this.unsubscribe = this.context.pipeline.onQueued((transmit) => {
      if (transmit === this.name) this.kick();
    });
    this.kick();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }

  private kick(): void {
    if (!this.running || this.draining) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.running) {
        this.timer = setTimeout(() => this.kick(), this.config.poll_interval * 1000);
        this.timer.unref?.();
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.running) {
      const batches = this.context.store.peek(this.name, BATCHES_PER_ROUND);
      if (batches.length === 0) return;
      try {
        let bytes = 0;
        let records = 0;
        const touched = new Set<number>();
        for (const batch of batches) {
          const rows = this.context.decodeBatch(batch.format, batch.payload);
          bytes += this.append(batch.asset, batch.stream_type, rows, touched);
          records += rows.length;
        }
        for (const fd of touched) {
          fs.fsyncSync(fd);
          fs.closeSync(fd);
        }
        this.context.store.ack(this.name, batches.map((b) => b.id));
        this.context.stats.success(this.name, records, bytes);
        this.context.markers.clear('write_failed');
      } catch (cause) {
        const message = `Writing CSV files to ${this.directory} failed: ${(cause as Error).message}. The records stay queued and are written when it works again.`;
        this.context.stats.failure(this.name, message);
        this.context.markers.raise(this.context.streams, 'error', 'write_failed', message);
        this.context.logger.error(message);
        return;
      }
      await new Promise((resolve) => setImmediate(resolve)); // let the API breathe between rounds
    }
  }

  /** Appends the rows; returns bytes written. Opened descriptors go into `touched` for fsync. */
  private append(asset: string, streamType: string, records: AgentRecord[], touched: Set<number>): number {
    const key = `${asset}\0${streamType}`;
    let written = 0;
    let lines: string[] = [];
    let target = this.files.get(key);
    const flush = () => {
      if (!target || lines.length === 0) return;
      const text = `${lines.join('\n')}\n`;
      const fd = fs.openSync(target.file, 'a');
      fs.writeSync(fd, text);
      touched.add(fd);
      target.size += Buffer.byteLength(text);
      written += Buffer.byteLength(text);
      lines = [];
    };
    for (const record of records) {
      const columns = Object.keys(record.fieldvalues);
      const fits = target && columns.every((c) => target!.columns.includes(c)) && target.size < this.config.max_file_bytes;
      if (!fits) {
        flush();
        target = this.newFile(asset, streamType, columns);
        this.files.set(key, target);
        written += target.size;
      }
      lines.push([record.timestamp, record.capturetime, record.record_id, ...target!.columns.map((c) => record.fieldvalues[c])].map((v) => cell(v as FieldValue)).join(','));
    }
    flush();
    return written;
  }

  private newFile(asset: string, streamType: string, columns: string[]): OpenFile {
    const base = `${safeName(asset)}__${safeName(streamType)}`;
    let n = 0;
    let file = path.join(this.directory, `${base}.csv`);
    while (fs.existsSync(file)) file = path.join(this.directory, `${base}.${++n}.csv`);
    const header = `${[...FIXED_COLUMNS, ...columns].map((c) => cell(c)).join(',')}\n`;
    fs.writeFileSync(file, header);
    return { file, columns, size: Buffer.byteLength(header) };
  }
}
