import chokidar, { type FSWatcher } from 'chokidar';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { LocalfileReceiverSchema, Parser } from '../../../../shared/config/schema.js';
import { filterSelects, streamId } from '../../../../shared/config/streams.js';
import type { StreamKey } from '../../markers/marker-store.js';
import type { AgentComponent, ComponentContext } from '../../supervisor/component.js';
import { readFile } from '../file-source/file-reader.js';
import { globToRegExp, isTemporaryName, matchesAny } from '../file-source/glob.js';
import { ParseWorkerClient } from '../file-source/parse-worker-client.js';
import { BufferFullError } from '../../pipeline/pipeline.js';

type LocalfileConfig = z.infer<typeof LocalfileReceiverSchema>;

interface Look {
  size: number;
  mtimeMs: number;
  /** When the file was first seen at this size and mtime. */
  unchangedSince: number;
}

/** How long a file must stay unchanged before a last line without newline counts as complete. */
const SETTLE_MS = 10_000;
const MAX_DEPTH = 8;

/**
 * Reads files that machines drop into local folders. A poll every `poll_interval` finds new and
 * grown files (chokidar makes the next look come sooner); a file is read once its size and
 * modification time were the same on two looks in a row, so a file still being written is not read
 * half-way. Reading and parsing run in a worker thread.
 */
export class LocalfileReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly worker: ParseWorkerClient;
  private readonly readLog;
  private readonly looks = new Map<string, Look>();
  private readonly streams: { key: StreamKey; patterns: RegExp[]; sources: string[]; parser: Parser | undefined }[];
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private scanning: Promise<void> | undefined;
  private rescanRequested = false;

  constructor(
    private readonly config: LocalfileConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    this.worker = new ParseWorkerClient(`parse:${this.name}`, context.logger);
    this.readLog = context.logger.child(context.logger.component, this.worker.threadName);
    this.streams = config.streams.map((s) => ({
      key: { asset: s.asset, stream_type: s.stream_type },
      patterns: s.file_filter.map((f) => globToRegExp(f)),
      sources: s.file_filter,
      parser: s.parser ? config.parsers.find((p) => p.parser_name === s.parser) : config.parsers.find((p) => filterSelects(p.filter_stream, streamId(s.asset, s.stream_type))),
    }));
  }

  private folders(): string[] {
    return this.config.connections.map((c) => path.resolve((c.root_path ?? c.data_directory)!));
  }

  async start(): Promise<void> {
    this.running = true;
    this.watcher = chokidar.watch(this.folders(), { ignoreInitial: true, depth: MAX_DEPTH, ignorePermissionErrors: true });
    this.watcher.on('all', () => this.soon());
    this.watcher.on('error', (error) => this.context.logger.warn(`watching failed, polling continues: ${(error as Error).message}`));
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.watcher?.close();
    this.watcher = undefined;
    await this.scanning?.catch(() => undefined);
    await this.worker.close();
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }

  async purge(streams: readonly StreamKey[]): Promise<void> {
    for (const key of this.looks.keys()) if (streams.some((s) => key.startsWith(`${streamId(s.asset, s.stream_type)}\0`))) this.looks.delete(key);
  }

  /** A change was seen: look again shortly (settling needs a second look anyway). */
  private soon(): void {
    if (this.scanning) this.rescanRequested = true;
    else this.schedule(Math.min(this.config.poll_interval * 1000, 500));
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.scanning = this.scan().finally(() => {
        this.scanning = undefined;
        const again = this.rescanRequested;
        this.rescanRequested = false;
        this.schedule(again ? 500 : this.config.poll_interval * 1000);
      });
    }, ms);
    this.timer.unref?.();
  }

  private async scan(): Promise<void> {
    for (const folder of this.folders()) {
      if (!this.running) return;
      const files = await this.list(folder);
      if (!files) continue;
      for (const relative of files) {
        if (!this.running) return;
        const stream = this.streams.find((s) => matchesAny(s.patterns, s.sources, relative));
        if (stream) await this.visit(stream, path.join(folder, ...relative.split('/')));
      }
    }
  }

  /** Files under the folder, relative with "/" separators; undefined (and a marker) when unreadable. */
  private async list(folder: string): Promise<string[] | undefined> {
    const keys = this.streams.map((s) => s.key);
    try {
      const found: string[] = [];
      const walk = async (dir: string, prefix: string, depth: number) => {
        for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) {
          if (isTemporaryName(entry.name)) continue;
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path.join(dir, entry.name), relative, depth + 1);
          else if (entry.isFile()) found.push(relative);
        }
      };
      await walk(folder, '', 0);
      this.context.markers.clear('source_unavailable', keys);
      return found.sort();
    } catch (cause) {
      const error = cause as NodeJS.ErrnoException;
      const why = error.code === 'ENOENT' ? 'does not exist' : error.code === 'EACCES' || error.code === 'EPERM' ? 'cannot be read (permission denied)' : `cannot be read (${error.message})`;
      const message = `The folder ${folder} ${why}. Tributary keeps looking every ${this.config.poll_interval} s.`;
      this.context.markers.raise(keys, 'error', 'source_unavailable', message);
      this.context.logger.warn(message);
      return undefined;
    }
  }

  private async visit(stream: (typeof this.streams)[number], file: string): Promise<void> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return; // vanished between listing and stat
    }
    const lookKey = `${streamId(stream.key.asset, stream.key.stream_type)}\0${file}`;
    const previous = this.looks.get(lookKey);
    const same = previous !== undefined && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs;
    const look = { size: stat.size, mtimeMs: stat.mtimeMs, unchangedSince: same ? previous.unchangedSince : Date.now() };
    this.looks.set(lookKey, look);
    const progress = this.context.store.fileProgress(this.name, stream.key, file);
    const done = progress !== undefined && progress.size === stat.size && progress.mtimeMs === stat.mtimeMs && progress.offset >= stat.size;
    if (done && !this.config.delete_completed) return;
    if (!same && !done) {
      this.rescanRequested = true; // still changing (or first look): look again soon
      return;
    }
    if (!stream.parser) return;
    try {
      const result = done
        ? { complete: true, records: 0 }
        : await readFile({
            receiver: this.name,
            stream: stream.key,
            file: { path: file, size: stat.size, mtimeMs: stat.mtimeMs, settled: Date.now() - look.unchangedSince >= Math.max(SETTLE_MS, 3 * this.config.poll_interval * 1000) },
            parser: stream.parser,
            context: this.context,
            worker: this.worker,
            readPrefix: (length) => readPrefix(file, length),
            exists: (candidate) => fs.promises.access(candidate).then(() => true, () => false),
          });
      if (result.records > 0) this.readLog.info(`${file}: ${result.records} record(s) read`);
      this.context.markers.clear('read_failed', [stream.key]);
      if (result.complete && this.config.delete_completed) await this.deleteCompleted(stream.key, file);
    } catch (cause) {
      if (!this.running) return;
      if (cause instanceof BufferFullError) return; // marked by the pipeline; the file waits
      const message = `Reading ${file} failed: ${(cause as Error).message}. It is tried again on the next look.`;
      this.context.markers.raise([stream.key], 'error', 'read_failed', message);
      this.context.logger.error(message);
    }
  }

  private async deleteCompleted(stream: StreamKey, file: string): Promise<void> {
    try {
      await fs.promises.unlink(file);
      this.context.store.forgetFile(this.name, stream, file);
      this.looks.delete(`${streamId(stream.asset, stream.stream_type)}\0${file}`);
      this.context.logger.info(`${file} deleted after reading (delete_completed)`);
      this.context.markers.clear('delete_failed', [stream]);
    } catch (cause) {
      const message = `${file} was read but could not be deleted: ${(cause as Error).message}`;
      this.context.markers.raise([stream], 'warning', 'delete_failed', message);
      this.context.logger.warn(message);
    }
  }
}

async function readPrefix(file: string, length: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
