import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../shared/api/errors.js';
import type { AgentStatus, LogName, RestreamRequest, Status, StreamRecord } from '../../shared/api/resources.js';
import type { Configuration } from '../../shared/config/schema.js';
import { collectSecrets, maskSecrets, unmaskSecrets } from '../../shared/config/secrets.js';
import { hasErrors, validateConfiguration } from '../../shared/config/validate.js';
import { fileReferenceViolations } from './config/file-references.js';
import type { Violation } from '../../shared/config/violations.js';
import { type Clock, SystemClock } from './clock.js';
import { ConfigStore } from './config/config-store.js';
import type { SecretCodec } from './config/secret-codec.js';
import { LogFile } from './logging/log-file.js';
import { readLastLines } from './logging/log-reader.js';
import { Logger, Redactor } from './logging/logger.js';
import { MarkerStore, type StreamKey } from './markers/marker-store.js';
import { MachineInfoSampler } from './status/machine-info.js';
import type { ComponentRegistry } from './supervisor/component.js';
import { builtInComponents } from './components.js';
import { type OpcuaBrowseNode, browseOpcua } from './receivers/opcua/index.js';
import { AgentStore } from './store/agent-store.js';
import { TransmitStatsBoard } from './pipeline/transmit-stats.js';
import type { RecordTap } from './pipeline/pipeline.js';
import type { AgentRecord } from '../../shared/records/record.js';
import { Supervisor, configuredServices } from './supervisor/supervisor.js';
import { SerialQueue } from './serial-queue.js';
import { parseTimestampToMicros } from '../../shared/api/envelope.js';
import { writeFileAtomic } from './config/config-store.js';
import { KpiService } from './kpi/index.js';

export interface AgentRuntimeOptions {
  /** Root of everything the agent keeps: conf.d/, logs/, state/. */
  dataDirectory: string;
  clock?: Clock;
  registry?: ComponentRegistry;
  /** Log rotation: bytes per file and generations kept (default 10 MiB × 5). */
  logMaxBytes?: number;
  logKeep?: number;
  machineInfoIntervalMs?: number;
  /** Desktop: encrypts secrets at rest (Electron safeStorage). Headless: none, the file is 0600. */
  secretCodec?: SecretCodec;
  stopTimeoutMs?: number;
  /** How long received records are kept for KPI evaluation (default 7 days). */
  kpiRetentionMs?: number;
}

export interface SaveOutcome {
  status: 'passed' | 'failed';
  violations: Violation[];
  config?: unknown;
  lastModified?: string;
}

/** A restream that names something not configured, or that failed. Nothing was restreamed. */
export class RestreamError extends Error {}

/**
 * The agent: configuration, the services that move data, their markers, logs and status. The API
 * (HTTP or IPC) is a thin layer over this facade; nothing here knows about transports or Electron.
 */
export class AgentRuntime {
  readonly clock: Clock;
  /** Logger of the web side (agent_web.log); the API adapters log requests through it. */
  readonly webLog: Logger;
  private readonly coreLog: Logger;
  private readonly logFiles: Record<LogName, LogFile>;
  private readonly redactor = new Redactor();
  private readonly configStore: ConfigStore;
  private readonly markers: MarkerStore;
  private readonly supervisor: Supervisor;
  private readonly machineInfo: MachineInfoSampler;
  private readonly queue = new SerialQueue();
  private readonly stateFile: string;
  private readonly store: AgentStore;
  private readonly stats = new TransmitStatsBoard();
  private readonly registry: ComponentRegistry;
  private readonly taps = new Set<RecordTap>();
  /** KPI library, validation, and evaluation on the recent records this agent committed. */
  readonly kpis: KpiService;
  private state: AgentStatus = 'stopped';
  private failure: string | undefined;

  constructor(private readonly options: AgentRuntimeOptions) {
    const dir = options.dataDirectory;
    this.clock = options.clock ?? new SystemClock();
    const logLimits = { maxBytes: options.logMaxBytes ?? 10 * 1024 * 1024, keep: options.logKeep ?? 5 };
    this.logFiles = {
      'agent_core.log': new LogFile(path.join(dir, 'logs', 'agent_core.log'), logLimits),
      'agent_web.log': new LogFile(path.join(dir, 'logs', 'agent_web.log'), logLimits),
    };
    this.coreLog = new Logger(this.logFiles['agent_core.log'], this.redactor, this.clock, 'agent');
    this.webLog = new Logger(this.logFiles['agent_web.log'], this.redactor, this.clock, 'api', 'http');
    this.configStore = new ConfigStore(path.join(dir, 'conf.d'), this.clock, 50, options.secretCodec);
    this.markers = new MarkerStore(this.clock);
    this.store = new AgentStore(path.join(dir, 'state', 'agent.db'));
    this.registry = options.registry ?? builtInComponents();
    this.supervisor = new Supervisor({
      registry: this.registry,
      store: this.store,
      stats: this.stats,
      taps: this.taps,
      agentDataDirectory: dir,
      markers: this.markers,
      logger: this.coreLog.child('supervisor'),
      clock: this.clock,
      componentsDirectory: path.join(dir, 'components'),
      stopTimeoutMs: options.stopTimeoutMs,
    });
    this.machineInfo = new MachineInfoSampler(dir, this.coreLog.child('machine-info'), options.machineInfoIntervalMs);
    this.stateFile = path.join(dir, 'state', 'agent.json');
    this.kpis = new KpiService({ file: path.join(dir, 'state', 'kpi.db'), clock: this.clock, logger: this.coreLog.child('kpi'), retentionMs: options.kpiRetentionMs });
    const kpis = this.kpis;
    this.tapRecords(Object.assign((_receiver: string, _stream: StreamKey, records: readonly AgentRecord[]) => kpis.remember(records), { worker: kpis.historyTarget() }));
    fs.mkdirSync(path.dirname(this.stateFile), { recursive: true });
  }

  /** Observes every batch of records the pipeline commits (after transforms). Returns an unsubscribe. */
  tapRecords(tap: RecordTap): () => void {
    this.taps.add(tap);
    return () => this.taps.delete(tap);
  }

  /** The agent's data directory (for services that keep their own files there). */
  get dataDirectory(): string {
    return this.options.dataDirectory;
  }

  /** Starts sampling and, unless an operator stopped the agent before, the agent itself. */
  async init(): Promise<void> {
    this.machineInfo.start();
    this.refreshSecrets();
    this.coreLog.info(`Tributary agent starting, data directory ${this.options.dataDirectory}`);
    if (this.desiredState() === 'stopped') this.coreLog.info('The agent was stopped by an operator before; it stays stopped until started.');
    else await this.start();
  }

  async dispose(): Promise<void> {
    await this.queue.run(async () => {
      await this.supervisor.stop();
      this.machineInfo.stop();
      this.store.close();
      this.kpis.close();
      this.coreLog.info('Tributary agent shut down');
      for (const file of Object.values(this.logFiles)) file.close();
    });
  }

  // ------------------------------------------------------------ configuration

  /** The saved configuration with secrets masked; an empty one when nothing was saved yet. */
  readConfig(): { config: unknown; lastModified: string | null } {
    const stored = this.configStore.load();
    if (!stored) return { config: { data_receiver: [], transforms: [], data_transmit: [] }, lastModified: null };
    return { config: maskSecrets(stored.config), lastModified: stored.lastModified };
  }

  /** Validates a document as it would be saved (masked secrets resolved against the saved ones). */
  validate(document: unknown): { status: 'passed' | 'failed'; violations: Violation[] } {
    const { violations } = this.check(document);
    return { status: hasErrors(violations) ? 'failed' : 'passed', violations };
  }

  /**
   * Validates and saves atomically. With `expectedRevision` (the last_modified the client loaded)
   * a save over someone else's newer save is refused with 409. A running agent reloads.
   */
  saveConfig(document: unknown, expectedRevision?: string): Promise<SaveOutcome> {
    return this.queue.run(async () => {
      const current = this.configStore.load();
      if (expectedRevision !== undefined && expectedRevision !== (current?.lastModified ?? '')) {
        throw new ApiError(409, `The configuration was changed at ${current?.lastModified ?? 'an unknown time'} after you loaded it (${expectedRevision}). Reload it and apply your change again.`);
      }
      const { violations, resolved } = this.check(document);
      if (hasErrors(violations)) return { status: 'failed', violations };
      const stored = this.configStore.save(resolved);
      this.refreshSecrets();
      this.coreLog.info(`Configuration saved (${stored.lastModified}).`);
      if (this.state === 'running') await this.startLocked();
      else await this.supervisor.clear();
      return { status: 'passed', violations, config: maskSecrets(stored.config), lastModified: stored.lastModified };
    });
  }

  private check(document: unknown): { violations: Violation[]; resolved: unknown } {
    const stored = safely(() => this.configStore.load()?.config);
    const unmasked = unmaskSecrets(document, stored);
    const { violations } = validateConfiguration(unmasked.config);
    return { violations: [...unmasked.violations, ...violations, ...fileReferenceViolations(unmasked.config)], resolved: unmasked.config };
  }

  private refreshSecrets(): void {
    this.redactor.setSecrets(collectSecrets(safely(() => this.configStore.load()?.config)));
  }

  // ------------------------------------------------------------ agent state

  start(): Promise<AgentStatus> {
    return this.queue.run(() => this.startLocked());
  }

  stop(): Promise<AgentStatus> {
    return this.queue.run(async () => {
      try {
        await this.supervisor.stop();
        this.state = 'stopped';
        this.saveDesiredState('stopped');
        this.coreLog.info('Agent stopped by operator');
      } catch (cause) {
        this.state = 'failed';
        this.coreLog.error('Agent failed to stop', cause);
      }
      return this.state;
    });
  }

  restart(): Promise<AgentStatus> {
    return this.queue.run(async () => {
      await this.supervisor.stop();
      this.coreLog.info('Agent restarting');
      return this.startLocked();
    });
  }

  /** Why the last start, stop or restart failed. */
  lastFailure(): string | undefined {
    return this.failure;
  }

  private async startLocked(): Promise<AgentStatus> {
    try {
      const config = this.loadValidConfig();
      if (config) await this.supervisor.start(config);
      else {
        await this.supervisor.clear();
        this.coreLog.info('Agent running without a configuration: nothing to collect until one is saved.');
      }
      this.state = 'running';
      this.saveDesiredState('running');
    } catch (cause) {
      this.state = 'failed';
      this.failure = `The agent failed to start: ${(cause as Error).message}`;
      this.coreLog.error(this.failure);
    }
    return this.state;
  }

  private loadValidConfig(): Configuration | undefined {
    const stored = this.configStore.load();
    if (!stored) return undefined;
    const { violations, config } = validateConfiguration(stored.config);
    const errors = violations.filter((v) => v.level === 'error');
    if (!config || errors.length > 0) {
      const first = errors[0];
      throw new Error(`the saved configuration has ${errors.length} error(s); first at ${JSON.stringify(first?.json_path)}: ${first?.description}`);
    }
    return config;
  }

  private desiredState(): AgentStatus {
    const saved = safely(() => JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as { desired?: AgentStatus });
    return saved?.desired === 'stopped' ? 'stopped' : 'running';
  }

  private saveDesiredState(desired: AgentStatus): void {
    writeFileAtomic(this.stateFile, JSON.stringify({ desired }));
  }

  // ------------------------------------------------------------ status, streams, logs

  status(): Status {
    let services = this.supervisor.serviceStates();
    if (Object.keys(services).length === 0) {
      const raw = safely(() => this.configStore.load()?.config);
      services = configuredServices(raw, this.registry);
    }
    return {
      backup: { config: this.configStore.backupState() },
      last_data_transmit: this.stats.snapshot(this.store),
      machine_info: this.machineInfo.current(),
      agent: { status: this.state, services },
    };
  }

  streams(): StreamRecord[] {
    const raw = safely(() => this.configStore.load()?.config) as { data_receiver?: unknown } | undefined;
    const out: StreamRecord[] = [];
    for (const receiver of Array.isArray(raw?.data_receiver) ? raw.data_receiver : []) {
      const r = receiver as { data_receiver_name?: unknown; streams?: unknown };
      if (typeof r.data_receiver_name !== 'string' || !Array.isArray(r.streams)) continue;
      for (const stream of r.streams as { asset?: unknown; stream_type?: unknown }[]) {
        if (typeof stream?.asset !== 'string' || typeof stream.stream_type !== 'string') continue;
        out.push({
          stream: `${stream.asset}:${stream.stream_type}`,
          asset: stream.asset,
          stream_type: stream.stream_type,
          data_receiver: r.data_receiver_name,
          markers: this.markers.forStream(stream.asset, stream.stream_type).filter((m) => m.component_type !== 'Receiver' || m.component === r.data_receiver_name),
        });
      }
    }
    return out;
  }

  /** Forgets read progress of the named streams so that their data is read and sent again. */
  restream(request: RestreamRequest): Promise<string> {
    return this.queue.run(async () => {
      const configured = this.streams();
      const unknown: string[] = [];
      for (const [receiver, streams] of Object.entries(request)) {
        if (!configured.some((s) => s.data_receiver === receiver)) unknown.push(`receiver "${receiver}"`);
        else
          for (const s of streams)
            if (!configured.some((c) => c.data_receiver === receiver && c.asset === s.asset && c.stream_type === s.stream_type))
              unknown.push(`stream "${s.asset}:${s.stream_type}" of receiver "${receiver}"`);
      }
      if (unknown.length > 0) throw new RestreamError(`Nothing was restreamed: not configured: ${unknown.join(', ')}.`);
      const running = this.state === 'running' && Object.keys(this.supervisor.serviceStates()).length > 0;
      const done: string[] = [];
      for (const [receiver, streams] of Object.entries(request)) {
        try {
          if (running) await this.supervisor.restream(receiver, streams, true);
          else this.store.purge(receiver, streams);
        } catch (cause) {
          throw new RestreamError(`Restream of receiver "${receiver}" failed: ${(cause as Error).message}`);
        }
        done.push(`${receiver}: ${streams.map((s) => `${s.asset}:${s.stream_type}`).join(', ')}`);
      }
      this.coreLog.info(`Restream requested for ${done.join('; ')}`);
      const count = Object.values(request).reduce((n, list) => n + list.length, 0);
      return `Restream complete for ${count} stream(s) (${done.join('; ')}): their data will be read and sent again.`;
    });
  }

  /**
   * Child nodes of an OPC UA node (default: the Objects folder) on the server of the saved receiver
   * `receiver`, for the console's tag picker. Throws ApiError (404 unknown receiver or node, 503
   * server unreachable or not trusted).
   */
  browseOpcua(receiver: string, nodeId?: string): Promise<OpcuaBrowseNode[]> {
    const saved = safely(() => this.configStore.load()?.config);
    return browseOpcua(saved, receiver, nodeId, { agentDataDirectory: this.options.dataDirectory, logger: this.coreLog.child(`receiver:${receiver}`) });
  }

  /** The last `lines` lines of a log, optionally only those after `since`. */
  readLog(name: LogName, lines: number, since?: string): string[] {
    let sinceMicros: bigint | undefined;
    if (since !== undefined) {
      sinceMicros = parseTimestampToMicros(since);
      if (sinceMicros === undefined) throw new ApiError(400, `since must be a time such as 2024-05-01 12:00:00.000000 (UTC) or ISO 8601, not "${since}".`);
    }
    return readLastLines(this.logFiles[name].generations(), lines, sinceMicros);
  }
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
