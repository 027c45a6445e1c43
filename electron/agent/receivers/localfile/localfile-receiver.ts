import chokidar, { type FSWatcher } from 'chokidar';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { LocalfileReceiverSchema } from '../../../../shared/config/schema.js';
import type { AgentComponent, ComponentContext, StreamKey } from '../../components/contract.js';
import type { StorageHealth } from '../../disk/storage-health.js';
import { FileDiscovery, MAX_DEPTH } from '../file-source/file-discovery.js';
import type { FileAccess } from '../file-source/file-access.js';
import { type FileStream, fileStreams, orderFiles, strictOrder, streamOf } from '../file-source/file-streams.js';
import { readRange } from '../file-source/read-range.js';
import { isTemporaryName } from '../file-source/glob.js';
import type { ParseThreads } from '../../components/parse-protocol.js';
import { ReadPolicy } from '../../disk/read-policy.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { DisposableStore, PollingLoop, breathe } from '../../lifecycle/index.js';

/** Why a receiver's waiting chunks are dropped (one reason for all: no DOMException per stop). */
const STOPPED = Object.assign(new Error('reading stopped'), { code: 'ABORT_ERR' });

export type LocalfileConfig = z.infer<typeof LocalfileReceiverSchema>;

/** A change in a watched folder is looked at this soon (changes within it make one scan)… */
const CHANGE_DELAY_MS = 20;
/** …a new file is looked at again this soon (the second look, which must find it unchanged)… */
const NEW_FILE_LOOK_MS = 100;
/** …and files still changing are looked at again this soon, not sooner. */
const RESCAN_MS = 500;

/** Why a folder cannot be listed, in words. */
function folderProblem(folder: string, cause: unknown): AgentMessage {
  const error = cause as NodeJS.ErrnoException;
  if (error.code === 'ENOENT') return say('localfile.folder_missing', 'The folder {folder} does not exist', { folder });
  if (error.code === 'EACCES' || error.code === 'EPERM') return say('localfile.folder_permission_denied', 'The folder {folder} cannot be read (permission denied)', { folder });
  return say('localfile.folder_unreadable', 'The folder {folder} cannot be read ({error})', { folder, error: error.message });
}

/** Subfolders of `root` that cannot be read: the first three named, the rest counted. */
function skippedUnder(root: string, skipped: readonly AgentMessage[]): AgentMessage {
  const [first, second, third] = skipped as [AgentMessage, AgentMessage?, AgentMessage?];
  if (skipped.length > 3)
    return say('localfile.folders_skipped_more', '{first}; {second}; {third}; and {more} more folder(s): skipped, the rest of {root} is read.', { first, second: second!, third: third!, more: skipped.length - 3, root });
  if (third) return say('localfile.folders_skipped_3', '{first}; {second}; {third}: skipped, the rest of {root} is read.', { first, second: second!, third, root });
  if (second) return say('localfile.folders_skipped_2', '{first}; {second}: skipped, the rest of {root} is read.', { first, second, root });
  return say('localfile.folders_skipped', '{first}: skipped, the rest of {root} is read.', { first, root });
}

/** The skipped subfolders of every root in one marker: two named, more counted. */
function skippedUnderAll(all: readonly AgentMessage[]): AgentMessage {
  const [first, second] = all as [AgentMessage, AgentMessage?];
  if (all.length > 2) return say('localfile.folders_skipped_roots_more', '{first} {second} Subfolders of {more} more folder(s) cannot be read either.', { first, second: second!, more: all.length - 2 });
  if (second) return say('localfile.folders_skipped_roots', '{first} {second}', { first, second });
  return first;
}

/**
 * Local files: the worker reads them itself; paths are the identity. Before a file is read (its
 * prefix is read first) and before it is deleted, its real path is checked (ReadPolicy): a link
 * swapped in after the folder was checked never leads into the data directory or a system folder.
 */
function localAccess(policy: ReadPolicy): FileAccess {
  // The refusal goes on with its code (file-discovery.ts marks it read_failed).
  const refuse = (why: AgentMessage | undefined) => {
    if (why) throw Object.assign(new Error(why.text), { said: why });
  };
  return {
    readPrefix: async (file, length) => {
      refuse(await policy.refuseFile(file));
      return readRange(file, 0, length);
    },
    exists: (candidate) => fs.promises.access(candidate).then(() => true, () => false),
    remove: async (file) => {
      refuse((await policy.refuseFile(file)) ?? (await policy.refuseDelete(path.dirname(file))));
      await fs.promises.unlink(file);
    },
  };
}

/**
 * Reads files that machines drop into local folders. A poll every `poll_interval` finds new and
 * grown files (chokidar makes the next look come sooner); a file is read once its size and
 * modification time were the same on two looks in a row, so a file still being written is not read
 * half-way (FileDiscovery, shared with the smb receiver). Reading, parsing and committing run in
 * the agent's shared parse threads, different files in parallel (one lane per thread); one file is
 * always read chunk after chunk, in order.
 */
export class LocalfileReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly workers: ParseThreads;
  /** Aborted by stop(): chunks still waiting for a parse thread are dropped. */
  private run: AbortController | undefined;
  private readonly discovery: FileDiscovery;
  private readonly streams: FileStream[];
  private watcher: FSWatcher | undefined;
  /** When the scheduled scan runs, and when the last one that changes asked for ended (epoch ms). */
  private dueAt = 0;
  private lastScanAt = 0;
  private newFileSeen = false;
  /** Whether changes asked for the next scan (RESCAN_MS counts from the end of such a scan). */
  private nextForChanges = false;
  private loop: PollingLoop | undefined;
  /** One per start: stop() disposes it, which aborts the reads in flight; the receiver runs while it is not disposed. */
  private started: DisposableStore | undefined;
  private rescanRequested = false;
  /** The message of each folder's current problem: it is logged when it starts or changes, not every poll. */
  private readonly folderProblems = new Map<string, string>();
  /** Folders refused on their real path (data directory; system folder with delete_completed), with why. */
  private readonly refusedFolders = new Map<string, string>();
  private readonly policy: ReadPolicy;
  private readonly access: FileAccess;
  /** Per connection folder, the message about its subfolders that cannot be read (marker folder_skipped). */
  private readonly skippedFolders = new Map<string, AgentMessage>();

  constructor(
    private readonly config: LocalfileConfig,
    private readonly context: ComponentContext,
    services: { parseWorkers: ParseThreads; storage?: StorageHealth; splitFileBytes?: number },
  ) {
    this.name = config.data_receiver_name;
    this.workers = services.parseWorkers;
    this.streams = fileStreams(config);
    this.policy = new ReadPolicy(context.agentDataDirectory);
    this.access = localAccess(this.policy);
    this.discovery = new FileDiscovery({
      receiver: this.name,
      pollIntervalSeconds: config.poll_interval,
      deleteCompleted: config.delete_completed,
      context,
      worker: this.workers,
      running: () => this.running,
      signal: () => this.run?.signal,
      storage: services?.storage,
      // A configuration that asks for an order reads one file at a time, its rows in file order.
      split: services?.splitFileBytes === undefined || strictOrder(config) ? undefined : { minBytes: services.splitFileBytes },
    });
  }

  private folders(): string[] {
    return this.config.connections.map((c) => path.resolve((c.root_path ?? c.data_directory)!));
  }

  private get running(): boolean {
    return this.started !== undefined && !this.started.disposed;
  }

  async start(): Promise<void> {
    const started = new DisposableStore();
    const run = new AbortController();
    started.add(() => run.abort(STOPPED));
    this.started = started;
    this.run = run;
    this.workers.start();
    this.watcher = chokidar.watch(this.folders(), { ignoreInitial: true, depth: MAX_DEPTH, ignorePermissionErrors: true });
    this.watcher.on('all', () => this.soon());
    this.watcher.on('error', (error) => this.context.logger.warn(`watching failed, polling continues: ${(error as Error).message}`));
    this.loop = new PollingLoop({
      step: () => this.step(),
      intervalMs: () => this.config.poll_interval * 1000,
      onError: (cause) => this.context.logger.error(`Scanning the folders failed: ${(cause as Error).message}`),
    });
    this.nextForChanges = false;
    this.dueAt = Date.now();
    this.loop.schedule(0);
  }

  async stop(): Promise<void> {
    this.started?.dispose();
    const scanning = this.loop?.dispose();
    await this.watcher?.close();
    this.watcher = undefined;
    await scanning;
    this.discovery.flushReadLog(true);
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }

  async purge(streams: readonly StreamKey[]): Promise<void> {
    this.discovery.purge(streams);
  }

  /**
   * A change was seen: look again shortly (a burst of changes makes one scan; settling needs a
   * second look anyway), but not sooner than RESCAN_MS after the last scan that changes asked for,
   * so that a file changing all the time does not make the folder be listed over and over. The
   * periodic look does not hold a change back (a drop just after it is looked at in CHANGE_DELAY_MS,
   * not up to RESCAN_MS later). A scan already due sooner is never postponed.
   */
  private soon(): void {
    const now = Date.now();
    const delay = Math.min(this.config.poll_interval * 1000, Math.max(CHANGE_DELAY_MS, this.lastScanAt + RESCAN_MS - now));
    if (!this.loop || this.loop.disposed) return;
    if (this.loop.busy) this.rescanRequested = true;
    else if (this.dueAt > now + delay) {
      this.nextForChanges = true;
      this.dueAt = now + delay;
      this.loop.schedule(delay);
    }
  }

  /** One scan; the next one sooner when changes came in during it (a new file sooner still). */
  private async step(): Promise<number> {
    const forChanges = this.nextForChanges;
    try {
      await this.scan();
    } catch (cause) {
      this.context.logger.error(`Scanning the folders failed: ${(cause as Error).message}`);
    }
    if (forChanges) this.lastScanAt = Date.now();
    this.discovery.flushReadLog();
    const again = this.rescanRequested;
    const soon = this.newFileSeen ? NEW_FILE_LOOK_MS : RESCAN_MS;
    this.rescanRequested = false;
    this.newFileSeen = false;
    const wait = again ? Math.min(this.config.poll_interval * 1000, soon) : this.config.poll_interval * 1000;
    this.nextForChanges = again;
    this.dueAt = Date.now() + wait;
    return wait;
  }

  private async scan(): Promise<void> {
    const visits: { stream: FileStream; file: string; relative: string; connection: number; mtimeMs: number }[] = [];
    const byTime = this.config.process_files_alphabetically === false;
    // Pruning of vanished files' progress needs every listed path, and where the listing was complete.
    const listed = this.discovery.pruneDue() ? new Set<string>() : undefined;
    const complete: string[] = [];
    const seen = new Set<string>();
    const skipped: string[] = [];
    for (const [connection, folder] of this.folders().entries()) {
      if (!this.running) return;
      if (await this.refused(folder)) continue;
      const listing = await this.list(folder);
      if (!listing) continue;
      complete.push(folder + path.sep);
      skipped.push(...listing.skipped.map((dir) => dir + path.sep));
      for (const [index, relative] of listing.files.entries()) {
        // Tens of thousands of files: the API answers in between, and a stop does not wait for the rest.
        if (index % 1000 === 999) {
          await breathe();
          if (!this.running) return;
        }
        const stream = streamOf(this.streams, relative);
        const file = path.join(folder, ...relative.split('/'));
        seen.add(file);
        if (listed) listed.add(file);
        if (!stream) continue;
        // Ordering by modification time needs it before the visits (each visit looks again: the
        // file may change while the files before it are read).
        const stat = byTime ? await fs.promises.stat(file).catch(() => undefined) : undefined;
        if (byTime && !stat) continue; // vanished meanwhile
        visits.push({ stream, file, relative, connection, mtimeMs: stat?.mtimeMs ?? 0 });
      }
    }
    orderFiles(visits, this.config);
    // One lane per parse thread (one lane when the configuration asks for an order); each takes the next file.
    let next = 0;
    const lane = async () => {
      while (this.running && next < visits.length) {
        const { stream, file } = visits[next++]!;
        await this.visit(stream, file);
      }
    };
    await Promise.all(Array.from({ length: strictOrder(this.config) ? 1 : this.workers.size }, lane));
    // Looks of files no longer listed are forgotten (folders that could not be listed keep theirs).
    if (this.running) for (const folder of complete) this.discovery.retain(seen, folder);
    if (listed && this.running) {
      const covered = (file: string) => complete.some((root) => file.startsWith(root)) && !skipped.some((dir) => file.startsWith(dir));
      await this.discovery.prune(listed, covered);
    }
  }

  /**
   * Whether the folder is refused on its real path, checked every scan (a link may change): one that
   * reaches into the data directory, or a system folder when delete_completed is on. Nothing is read
   * or deleted there; the streams get a source_refused marker, the log a line when it starts or ends.
   */
  private async refused(folder: string): Promise<boolean> {
    const why = this.config.delete_completed ? await this.policy.refuseDelete(folder) : await this.policy.refuseFolder(folder);
    const before = this.refusedFolders.get(folder);
    const keys = this.streams.map((s) => s.key);
    if (why === undefined) {
      if (before === undefined) return false;
      this.refusedFolders.delete(folder);
      this.context.logger.info(`The folder ${folder} is no longer refused: it is read again.`);
      if (this.refusedFolders.size === 0) this.context.markers.clear('source_refused', keys);
      return false;
    }
    this.context.markers.raise(keys, 'error', 'source_refused', why);
    if (before !== why.text) this.context.logger.error(why.text);
    this.refusedFolders.set(folder, why.text);
    return true;
  }

  /**
   * Files under the folder, relative with "/" separators, and the subfolders that could not be read
   * (skipped with a marker naming them: one root-only lost+found must not stop the rest); undefined
   * (and a marker) when the folder itself cannot be read.
   */
  private async list(folder: string): Promise<{ files: string[]; skipped: string[] } | undefined> {
    const keys = this.streams.map((s) => s.key);
    try {
      const found: string[] = [];
      const skipped: { dir: string; why: AgentMessage }[] = [];
      const walk = async (dir: string, prefix: string, depth: number) => {
        let entries: fs.Dirent[];
        try {
          entries = await fs.promises.readdir(dir, { withFileTypes: true });
        } catch (cause) {
          if (depth === 0) throw cause;
          skipped.push({ dir, why: folderProblem(dir, cause) });
          return;
        }
        for (const entry of entries) {
          if (isTemporaryName(entry.name)) continue;
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path.join(dir, entry.name), relative, depth + 1);
          else if (entry.isFile()) found.push(relative);
        }
      };
      await walk(folder, '', 0);
      if (this.folderProblems.delete(folder)) {
        this.context.logger.info(`The folder ${folder} can be read again.`);
        if (this.folderProblems.size === 0) this.context.markers.clear('source_unavailable', keys);
      }
      this.showSkipped(folder, skipped);
      return { files: found.sort(), skipped: skipped.map((s) => s.dir) };
    } catch (cause) {
      const said = say('localfile.folder_unavailable', '{problem}. Tributary keeps looking every {seconds} s.', { problem: folderProblem(folder, cause), seconds: this.config.poll_interval });
      const message = said.text;
      this.context.markers.raise(keys, 'error', 'source_unavailable', said);
      if (this.folderProblems.get(folder) !== message) this.context.logger.warn(message);
      this.folderProblems.set(folder, message);
      return undefined;
    }
  }

  /** One warning marker (folder_skipped) naming the subfolders that cannot be read; logged when that changes. */
  private showSkipped(root: string, skipped: readonly { dir: string; why: AgentMessage }[]): void {
    const keys = this.streams.map((s) => s.key);
    const said = skipped.length === 0 ? undefined : skippedUnder(root, skipped.map((s) => s.why));
    const message = said?.text;
    const before = this.skippedFolders.get(root)?.text;
    if (message === before) return;
    if (said === undefined) {
      this.skippedFolders.delete(root);
      this.context.logger.info(`Every folder under ${root} can be read again.`);
    } else {
      this.skippedFolders.set(root, said);
      this.context.logger.warn(said.text);
    }
    const all = [...this.skippedFolders.values()];
    if (all.length === 0) this.context.markers.clear('folder_skipped', keys);
    else this.context.markers.raise(keys, 'warning', 'folder_skipped', skippedUnderAll(all));
  }

  private async visit(stream: FileStream, file: string): Promise<void> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      return; // vanished between listing and stat
    }
    const seen = this.discovery.seen(stream, file);
    if (await this.discovery.visit(stream, { path: file, size: stat.size, mtimeMs: stat.mtimeMs }, this.access)) {
      this.rescanRequested = true;
      // A new file gets its second look soon; files still changing every RESCAN_MS.
      if (!seen) this.newFileSeen = true;
    }
  }
}
