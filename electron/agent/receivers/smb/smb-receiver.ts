import type { z } from 'zod';
import type { SmbReceiverSchema } from '../../../../shared/config/schema.js';
import { parseSharedFolder, smbCredentials } from '../../../../shared/config/receivers/smb/rules.js';
import type { AgentComponent, ComponentContext, StreamKey } from '../../components/contract.js';
import type { StorageHealth } from '../../disk/storage-health.js';
import { ReadPolicy, localFolderOfShare } from '../../disk/read-policy.js';
import { FileDiscovery, MAX_DEPTH } from '../file-source/file-discovery.js';
import type { FileAccess } from '../file-source/file-access.js';
import { type FileStream, fileStreams, orderFiles, streamOf } from '../file-source/file-streams.js';
import { isTemporaryName } from '../file-source/glob.js';
import type { ParseThreads } from '../../components/parse-protocol.js';
import { DisposableStore, PollingLoop } from '../../lifecycle/index.js';
import { type SmbSecurity, SmbSession, type SmbTarget, isMissing } from './smb-client.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { CONNECTION_CATEGORIES, type ConnectionLabel, type ConnectionProblem, type Phase, classifyFileError, describeDeleteError, describeProblem } from './smb-problems.js';

/** Why a receiver's waiting chunks are dropped (one reason for all: no DOMException per stop). */
const STOPPED = Object.assign(new Error('reading stopped'), { code: 'ABORT_ERR' });

export type SmbConfig = z.infer<typeof SmbReceiverSchema>;

/** A server that stops answering fails the poll after this long; the next poll reconnects. */
const ANSWER_TIMEOUT_MS = 20_000;
/** Longest wait between attempts on a failing connection (unless poll_interval is longer). */
const MAX_BACKOFF_SECONDS = 60;

interface ConnectionState {
  target: SmbTarget;
  /** Share-relative folder, "\" separated, "" for the share's root. */
  folder: string;
  /** Identity prefix of its files: \\host\share\folder\ */
  prefix: string;
  label: ConnectionLabel;
  failures: number;
  retryAt: number;
  problem: ConnectionProblem | undefined;
  /** The session's dialect, signing and encryption as last logged. */
  security?: string;
  /** Subfolders the last listing could not read (skipped, marker folder_skipped), as file identity prefixes. */
  skipped: string[];
}

interface ListedEntry {
  relative: string;
  size: number;
  mtimeMs: number;
}

/**
 * Reads files from Windows network shares (SMB2) exactly as localfile reads a local folder: same
 * discovery (FileDiscovery: two equal looks before reading, progress by path, size, mtime and bytes,
 * rewrites, renames, delete_completed), same parse worker. Each poll opens one session per
 * connection, lists the folder with one directory query per folder (size and time come with the
 * listing, so unchanged files cost nothing), reads what is due and closes the session again: no
 * handle outlives a poll. A failing connection gets a marker saying why and is retried with backoff.
 * Files are identified as \\host\share\folder\file, which is also what logs and markers show.
 */
export class SmbReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly worker: ParseThreads;
  /** Aborted by stop(): chunks still waiting for a parse thread are dropped. */
  private run: AbortController | undefined;
  private readonly discovery: FileDiscovery;
  private readonly streams: FileStream[];
  private readonly keys: StreamKey[];
  private readonly connections: ConnectionState[];
  private loop: PollingLoop | undefined;
  /** One per start: stop() disposes it, which aborts the reads in flight; the receiver runs while it is not disposed. */
  private started: DisposableStore | undefined;
  private rescanRequested = false;
  private session: SmbSession | undefined;
  private readonly policy: ReadPolicy;
  /** Why a connection is refused: a share of this PC that is a folder of the data directory (by UNC). */
  private readonly refusals = new Map<string, string>();
  /** This scan's listing, when pruning is due: files seen and the connections listed completely. */
  private listed: { files: Set<string>; prefixes: string[] } | undefined;
  private skippedMessage: string | undefined;

  constructor(
    private readonly config: SmbConfig,
    private readonly context: ComponentContext,
    services: { parseWorkers: ParseThreads; storage?: StorageHealth },
  ) {
    this.name = config.data_receiver_name;
    this.worker = services.parseWorkers;
    // Windows shares ignore case in names, so file_filter does too, whatever the agent's OS.
    this.streams = fileStreams(config, true);
    this.keys = this.streams.map((s) => s.key);
    this.policy = new ReadPolicy(context.agentDataDirectory);
    this.discovery = new FileDiscovery({
      receiver: this.name,
      pollIntervalSeconds: config.poll_interval,
      deleteCompleted: config.delete_completed,
      context,
      worker: this.worker,
      running: () => this.running,
      signal: () => this.run?.signal,
      storage: services?.storage,
    });
    this.connections = config.connections.map((c) => {
      const { share, folder } = parseSharedFolder(c.shared_folder);
      const { domain, username } = smbCredentials(c);
      const unc = `\\\\${c.host}\\${[share, ...folder].join('\\')}`;
      return {
        target: { host: c.host, port: c.port, domain, username, password: c.password, share },
        folder: folder.join('\\'),
        prefix: `${unc}\\`,
        label: { server: c.port === 445 ? c.host : `${c.host}:${c.port}`, unc, share, user: domain ? `${domain}\\${username}` : username },
        failures: 0,
        retryAt: 0,
        problem: undefined,
        skipped: [],
      };
    });
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
    this.worker.start();
    this.loop = new PollingLoop({
      step: () => this.step(),
      intervalMs: () => this.config.poll_interval * 1000,
      onError: (cause) => this.context.logger.error(`Scanning the shares failed: ${(cause as Error).message}`),
    });
    this.loop.schedule(0);
  }

  async stop(): Promise<void> {
    this.started?.dispose();
    const scanning = this.loop?.dispose();
    this.session?.close(); // a call waiting on a silent server fails now, not after the timeout
    await scanning;
    this.discovery.flushReadLog(true);
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }

  async purge(streams: readonly StreamKey[]): Promise<void> {
    this.discovery.purge(streams);
  }

  /** One scan; the next one sooner when a file changed (it needs a second look before it is read). */
  private async step(): Promise<number> {
    try {
      await this.scan();
    } finally {
      this.discovery.flushReadLog();
    }
    const again = this.rescanRequested;
    this.rescanRequested = false;
    return again ? Math.min(500, this.config.poll_interval * 1000) : this.nextPollMs();
  }

  /** The poll interval, or sooner when a failing connection is due again. */
  private nextPollMs(): number {
    const interval = this.config.poll_interval * 1000;
    const due = this.connections.filter((c) => c.retryAt > 0).map((c) => Math.max(0, c.retryAt - Date.now()));
    return due.length === this.connections.length ? Math.max(Math.min(...due), 100) : interval;
  }

  private async scan(): Promise<void> {
    let changed = false;
    // Pruning of vanished files' progress (when due) needs what the connections listed completely.
    this.listed = this.discovery.pruneDue() ? { files: new Set(), prefixes: [] } : undefined;
    for (const connection of this.connections) {
      if (!this.running) return;
      if (Date.now() < connection.retryAt) continue;
      if (await this.refused(connection)) continue;
      const before = connection.problem;
      await this.poll(connection);
      if (connection.problem !== before) changed = true;
    }
    if (changed && this.running) this.showProblems();
    this.showSkipped();
    const listed = this.listed;
    const skipped = this.connections.flatMap((c) => c.skipped);
    const covered = (file: string) => listed!.prefixes.some((prefix) => file.startsWith(prefix)) && !skipped.some((prefix) => file.startsWith(prefix));
    if (listed && listed.prefixes.length > 0 && this.running) await this.discovery.prune(listed.files, covered);
  }

  /**
   * An administrative share of this PC (\\localhost\C$\…) is a local folder: one that reaches into
   * the data directory is not read (checked every poll on its real path; marker source_refused).
   */
  private async refused(connection: ConnectionState): Promise<boolean> {
    const { host } = connection.target;
    const local = localFolderOfShare(host, connection.label.unc.slice(2 + host.length));
    const why = local === undefined ? undefined : await this.policy.refuseFolder(local);
    const before = this.refusals.get(connection.label.unc);
    if (why === undefined) {
      if (before !== undefined && this.refusals.delete(connection.label.unc) && this.refusals.size === 0) this.context.markers.clear('source_refused', this.keys);
      return false;
    }
    const said = say('smb.share_refused', '{unc}: {reason}', { unc: connection.label.unc, reason: why });
    this.context.markers.raise(this.keys, 'error', 'source_refused', said);
    if (before !== said.text) this.context.logger.error(said.text);
    this.refusals.set(connection.label.unc, said.text);
    return true;
  }

  /** One poll of one connection: connect, list, visit every matching file, disconnect. */
  private async poll(connection: ConnectionState): Promise<void> {
    let phase: Phase = 'connect';
    let session: SmbSession | undefined;
    try {
      session = new SmbSession(connection.target, ANSWER_TIMEOUT_MS);
      this.session = session; // stop() closes it, also while connecting
      await session.connect();
      const security = describeSecurity(session.security);
      if (security !== connection.security) {
        // Once per connection, and again when the server's settings change: what protects the data.
        this.context.logger.info(`${connection.label.unc}: ${security}`);
        connection.security = security;
      }
      phase = 'list';
      const files = await this.list(session, connection);
      if (connection.problem) {
        // Connected and listed: the connection's marker goes now, not after the reading.
        this.context.logger.info(`${connection.label.unc} is reachable again`);
        connection.problem = undefined;
        this.showProblems();
      }
      connection.failures = 0;
      connection.retryAt = 0;
      phase = 'read';
      const access = this.access(session, connection);
      const seen = new Set<string>();
      // Name order, or oldest first (process_files_alphabetically false); connections are read one after the other anyway.
      for (const file of orderFiles(files.map((f) => ({ ...f, connection: 0 })), this.config)) {
        if (!this.running) return;
        const stream = streamOf(this.streams, file.relative);
        if (!stream) continue;
        const path = connection.prefix + file.relative.replace(/\//g, '\\');
        seen.add(path);
        if (await this.discovery.visit(stream, { path, size: file.size, mtimeMs: file.mtimeMs }, access)) this.rescanRequested = true;
      }
      this.discovery.retain(seen, connection.prefix);
      if (this.listed && this.running) {
        for (const file of seen) this.listed.files.add(file);
        this.listed.prefixes.push(connection.prefix);
      }
      if (session.bytesRead > 0) this.context.logger.debug(`${connection.label.unc}: ${files.length} file(s) listed, ${session.bytesRead} byte(s) read`);
    } catch (error) {
      if (!this.running) return;
      connection.failures += 1;
      const backoff = Math.min(this.config.poll_interval * 2 ** (connection.failures - 1), Math.max(MAX_BACKOFF_SECONDS, this.config.poll_interval));
      connection.retryAt = Date.now() + backoff * 1000;
      connection.problem = describeProblem(error, phase, connection.label, Math.round(backoff));
      this.context.logger.warn(connection.problem.message);
    } finally {
      session?.close();
      if (this.session === session) this.session = undefined;
    }
  }

  /**
   * Files below the connection's folder (MAX_DEPTH levels), "/"-separated relative paths, sorted. A
   * subfolder the user may not open is skipped (connection.skipped, a marker); the rest is listed.
   */
  private async list(session: SmbSession, connection: ConnectionState): Promise<ListedEntry[]> {
    const found: ListedEntry[] = [];
    const skipped: string[] = [];
    const walk = async (folder: string, prefix: string, depth: number) => {
      let entries: Awaited<ReturnType<SmbSession['list']>>;
      try {
        entries = await session.list(folder);
      } catch (error) {
        // A subfolder the server will not finish listing (an archive of millions of files) is skipped like one that cannot be opened.
        const skippable = classifyFileError(error) === 'file' || (error as { code?: string }).code === 'SMB_ENDLESS_LISTING';
        if (depth === 0 || !skippable) throw error;
        skipped.push(`${connection.prefix}${prefix.replace(/\//g, '\\')}\\`);
        return;
      }
      for (const entry of entries) {
        if (isTemporaryName(entry.name)) continue;
        const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory) {
          if (depth < MAX_DEPTH) await walk(folder ? `${folder}\\${entry.name}` : entry.name, relative, depth + 1);
        } else found.push({ relative, size: entry.size, mtimeMs: entry.mtimeMs });
      }
    };
    await walk(connection.folder, '', 0);
    connection.skipped = skipped;
    return found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  }

  /** The share path of a file identity of this connection; undefined for another connection's file. */
  private sharePath(connection: ConnectionState, identity: string): string | undefined {
    if (!identity.startsWith(connection.prefix)) return undefined;
    const relative = identity.slice(connection.prefix.length);
    return connection.folder ? `${connection.folder}\\${relative}` : relative;
  }

  private access(session: SmbSession, connection: ConnectionState): FileAccess {
    const at = (identity: string) => this.sharePath(connection, identity) ?? identity;
    return {
      readPrefix: async (file, length) => (length === 0 ? Buffer.alloc(0) : session.read(at(file), 0, length)),
      readRange: (file, offset, length) => session.read(at(file), offset, length),
      // Another connection's file is never taken for a renamed one of this connection.
      exists: async (file) => {
        const sharePath = this.sharePath(connection, file);
        return sharePath === undefined ? true : session.exists(sharePath);
      },
      remove: (file) => session.remove(at(file)).catch((error) => (isMissing(error) ? undefined : Promise.reject(error))),
      confirm: (file) => session.stat(at(file)).catch((error) => (isMissing(error) ? undefined : Promise.reject(error))),
      classify: classifyFileError,
      describeDeleteError: (error) => describeDeleteError(error, connection.label.user),
    };
  }

  /** One warning marker naming the subfolders that could not be read; logged when that changes. */
  private showSkipped(): void {
    const skipped = this.connections.flatMap((c) => c.skipped);
    // The folders named are share paths; "and N more" is said by code.
    const folders = skipped.slice(0, 3).join(', ');
    const said =
      skipped.length === 0
        ? undefined
        : skipped.length > 3
          ? say('smb.folders_skipped_more', 'The folder(s) {folders} and {more} more cannot be read (access denied, gone while listed, or listed by the server without end): skipped, the rest of the share is read.', { folders, more: skipped.length - 3 })
          : say('smb.folders_skipped', 'The folder(s) {folders} cannot be read (access denied, gone while listed, or listed by the server without end): skipped, the rest of the share is read.', { folders });
    const message = said?.text;
    if (message === this.skippedMessage) return;
    this.skippedMessage = message;
    if (message === undefined) {
      this.context.markers.clear('folder_skipped', this.keys);
      this.context.logger.info('Every folder of the shares can be read again.');
    } else {
      this.context.markers.raise(this.keys, 'warning', 'folder_skipped', said!);
      this.context.logger.warn(message);
    }
  }

  /** One marker per category on all streams, naming every connection that has that problem. */
  private showProblems(): void {
    for (const category of CONNECTION_CATEGORIES) {
      const problems = this.connections.filter((c) => c.problem?.category === category).map((c) => c.problem!.said);
      if (problems.length > 0) this.context.markers.raise(this.keys, 'error', category, problemsOf(problems));
      else this.context.markers.clear(category, this.keys);
    }
  }
}

/** The problems of several connections in one marker: two said whole, more counted. */
function problemsOf(problems: readonly AgentMessage[]): AgentMessage {
  const [first, second] = problems as [AgentMessage, AgentMessage?];
  if (problems.length > 2) return say('smb.problems_more', '{first} {second} {more} more connection(s) have the same problem.', { first, second: second!, more: problems.length - 2 });
  if (second) return say('smb.problems_2', '{first} {second}', { first, second });
  return first;
}

/** "SMB 3.1.1, encrypted (AES-128-GCM)", "SMB 3.1.1, signed (AES-128-GMAC)". */
function describeSecurity(security: SmbSecurity | undefined): string {
  if (!security) return 'connected';
  const how = security.encryption ? `encrypted (${security.encryption})` : security.signing ? `signed (${security.signing})` : 'neither signed nor encrypted';
  return `SMB ${security.dialect}, ${how}`;
}
