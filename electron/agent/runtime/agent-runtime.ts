import type { AgentStatus, ConfigChanges, ConfigValidation, LogName, RestreamRequest, Status, StreamRecord } from '../../../shared/api/resources.js';
import type { Configuration } from '../../../shared/config/schema.js';
import { maskSecrets } from '../../../shared/config/secrets.js';
import { hasErrors } from '../../../shared/config/validate.js';
import type { Clock } from '../time/clock.js';
import type { ConfigVersion } from '../config/config-history.js';
import type { Logger } from '../logging/logger.js';
import { AgentLogs, type LogQuery } from '../logging/agent-logs.js';
import type { LogSlice } from '../logging/log-slice.js';
import { DesiredState } from '../config/desired-state.js';
import { MarkerStore } from '../markers/marker-store.js';
import { MachineInfoSampler } from '../status/machine-info.js';
import { withHealth } from '../status/service-health.js';
import type { ComponentRegistry } from '../components/registry.js';
import { type OpcuaBrowseNode, browseOpcua } from '../receivers/opcua/index.js';
import { AgentStore } from '../store/agent-store.js';
import { DataFlow } from '../flow/data-flow.js';
import { readStoredFlow, streamStats } from '../flow/stream-stats.js';
import type { RecordTap } from '../pipeline/pipeline.js';
import { Supervisor, configuredServices } from '../supervisor/supervisor.js';
import { SerialQueue } from './serial-queue.js';
import { breathe } from '../lifecycle/index.js';
import { safely } from '../errors/agent-error.js';
import { configuredStreams, configuredTransmits, streamRecords, unsentMarker, unsentStreams } from './configured-streams.js';
import { RestreamError, restreamStreams } from './restream.js';
import type { AgentRuntimeOptions, SaveOutcome } from './runtime-options.js';
import { KpiService } from '../kpi/index.js';
import { StorageHealth } from '../disk/storage-health.js';
import { StorageRecovery } from '../disk/storage-recovery.js';
import { ParseWorkerPool } from '../workers/parse-worker-pool.js';
import { ConfigValidator } from '../config/config-validator.js';
import type { AuditLog } from '../logging/audit-log.js';
import { ConfigService } from '../config/config-service.js';
import type { PreviewRequest, PreviewResult } from '../../../shared/api/preview.js';

export { RestreamError, type AgentRuntimeOptions, type SaveOutcome };

const NOTHING_CHANGES: ConfigChanges = { start: [], restart: [], stop: [], keep: [] };

/** What an agent is made of, built once by assembly/assemble-agent.ts (the composition root). */
export interface AgentParts {
  clock: Clock;
  logs: AgentLogs;
  storage: StorageHealth;
  recovery: StorageRecovery;
  parseWorkers: ParseWorkerPool;
  validator: ConfigValidator;
  config: ConfigService;
  markers: MarkerStore;
  supervisor: Supervisor;
  machineInfo: MachineInfoSampler;
  desired: DesiredState;
  store: AgentStore;
  flow: DataFlow;
  registry: ComponentRegistry;
  kpis: KpiService;
  /** Observers of committed records: the supervisor's pipelines call them, tapRecords adds them. */
  taps: Set<RecordTap>;
}

/**
 * The agent: configuration, the services that move data, their markers, logs and status. The API
 * (HTTP or IPC) is a thin layer over this facade; nothing here knows about transports or Electron.
 */
export class AgentRuntime {
  readonly clock: Clock;
  /** Logger of the web side (agent_web.log); the API adapters log requests through it. */
  readonly webLog: Logger;
  /** logs/audit.log: the API records who changed what, and what it refused. */
  readonly audit: AuditLog;
  private readonly coreLog: Logger;
  private readonly logs: AgentLogs;
  /** What the agent cannot write right now (full disk …): status shows it, recovery retries it. */
  private readonly storage: StorageHealth;
  private readonly recovery: StorageRecovery;
  private readonly parseWorkers: ParseWorkerPool;
  private readonly validator: ConfigValidator;
  private readonly config: ConfigService;
  private readonly markers: MarkerStore;
  private readonly supervisor: Supervisor;
  private readonly machineInfo: MachineInfoSampler;
  private readonly queue = new SerialQueue();
  private readonly desired: DesiredState;
  private readonly store: AgentStore;
  /** Per-stream and per-transmit counters and their per-minute history (GET /v1/streams, /v1/history, /metrics). */
  readonly flow: DataFlow;
  private readonly registry: ComponentRegistry;
  private readonly taps: Set<RecordTap>;
  /** KPI library, validation, and evaluation on the recent records this agent committed. */
  readonly kpis: KpiService;
  private state: AgentStatus = 'stopped';
  private failure: string | undefined;

  constructor(
    private readonly options: AgentRuntimeOptions,
    parts: AgentParts,
  ) {
    ({
      clock: this.clock,
      logs: this.logs,
      storage: this.storage,
      recovery: this.recovery,
      parseWorkers: this.parseWorkers,
      validator: this.validator,
      config: this.config,
      markers: this.markers,
      supervisor: this.supervisor,
      machineInfo: this.machineInfo,
      desired: this.desired,
      store: this.store,
      flow: this.flow,
      registry: this.registry,
      kpis: this.kpis,
      taps: this.taps,
    } = parts);
    this.coreLog = this.logs.core;
    this.webLog = this.logs.web;
    this.audit = this.logs.audit;
  }

  /**
   * Observes every batch of records the pipeline commits (after transforms; from parse workers too,
   * which then send the records back). Returns an unsubscribe.
   */
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
    this.flow.start();
    this.config.refreshSecrets();
    this.coreLog.info(`Tributary agent starting, data directory ${this.options.dataDirectory}`);
    void this.options.describeMachine?.().then((line) => line && this.coreLog.info(`Machine: ${line}`));
    if (this.desired.read() === 'stopped') this.coreLog.info('The agent was stopped by an operator before; it stays stopped until started.');
    else await this.start();
  }

  async dispose(): Promise<void> {
    await this.queue.run(async () => {
      this.recovery.stop();
      await this.supervisor.stop();
      await this.parseWorkers.close();
      await this.validator.close();
      this.machineInfo.stop();
      this.flow.stop();
      this.store.close();
      this.kpis.close();
      this.coreLog.info('Tributary agent shut down');
      this.logs.close();
      this.storage.close();
    });
  }

  // ------------------------------------------------------------ configuration

  /** The saved configuration with secrets masked; an empty one when nothing was saved yet. */
  readConfig(): ReturnType<ConfigService['read']> {
    return this.config.read();
  }

  /** The revision of the saved configuration (the fleet polls it: no masking of the whole document). */
  configRevision(): number | null {
    return this.config.revision();
  }

  /** The kept versions, newest first (GET /v1/config/history). */
  configHistory(): ConfigVersion[] {
    return this.config.history();
  }

  /** One kept version, secrets masked; undefined for an unknown revision. */
  configVersion(revision: number): { config: unknown; version: ConfigVersion } | undefined {
    return this.config.version(revision);
  }

  /**
   * Validates a document as it would be saved (masked secrets resolved against the saved ones). A
   * document without errors also says what saving it would do to the running agent. `files: false`:
   * the files and folders it names are not looked at (a non-admin's validation, decision 0063).
   */
  async validate(document: unknown, options: { files?: boolean } = {}): Promise<ConfigValidation> {
    const { violations, config } = await this.config.check(document, options.files ?? true);
    if (hasErrors(violations) || !config) return { status: 'failed', violations };
    return { status: 'passed', violations, changes: this.state === 'running' ? this.supervisor.plan(config) : { ...NOTHING_CHANGES } };
  }

  /**
   * Validates and saves atomically. With `expectedRevision` (the revision the client loaded, its
   * ETag) a save over someone else's newer save is a conflict. A running agent applies the
   * configuration, restarting only what changed. The saved file is read, parsed and validated once
   * per save. `savedBy` (the API token's name) is recorded with the version.
   */
  async saveConfig(document: unknown, expectedRevision?: string, savedBy: string | null = null): Promise<SaveOutcome> {
    // Validation and the look at folders and files run before the save takes its turn in the queue:
    // a folder of 50,000 files or a slow share never holds up a stop, a start or another save.
    const draft = await this.config.draft(document);
    return this.queue.run(async () => {
      const { current, checked } = await this.config.recheck(draft, expectedRevision);
      const { violations, resolved, config } = checked;
      if (hasErrors(violations) || !config) return { status: 'failed', violations };
      await breathe();
      const stored = await this.config.write(resolved, current, savedBy);
      await breathe();
      this.coreLog.info(`Configuration saved (revision ${stored.revision}, ${stored.lastModified}).`);
      let changes = { ...NOTHING_CHANGES };
      if (this.state === 'running') changes = await this.applyLocked(config);
      // A valid save also brings back an agent that failed to start (e.g. on a broken configuration),
      // unless an operator had stopped it: everything starts.
      else if (this.state === 'failed' && this.desired.read() === 'running') {
        if ((await this.startLocked(config)) === 'running') changes = { ...NOTHING_CHANGES, start: Object.keys(this.supervisor.serviceStates()) };
      } else await this.supervisor.clear();
      // Masking a big document and serializing the answer are each a long step: status answers between.
      await breathe();
      return { status: 'passed', violations, config: maskSecrets(stored.config), lastModified: stored.lastModified, revision: stored.revision, changes };
    });
  }

  /** What a receiver of an unsaved configuration would read (POST /v1/config/preview). */
  preview(request: PreviewRequest): Promise<PreviewResult> {
    return this.config.preview(request);
  }

  /** Secrets from outside the configuration (the fleet's remote tokens): redacted in every log. */
  redactInLogs(group: string, values: readonly string[]): void {
    this.logs.redactor.setGroup(group, values);
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
        this.desired.save('stopped');
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

  /** A running agent takes a saved configuration: only the services whose configuration changed restart. */
  private async applyLocked(config: Configuration): Promise<ConfigChanges> {
    try {
      return await this.supervisor.apply(config);
    } catch (cause) {
      this.state = 'failed';
      this.failure = `The agent failed to apply the configuration: ${(cause as Error).message}`;
      this.coreLog.error(this.failure);
      return { ...NOTHING_CHANGES };
    }
  }

  /** Starts every service from scratch: with `given`, that parsed configuration, else the saved one. */
  private async startLocked(given?: Configuration): Promise<AgentStatus> {
    try {
      const config = given ?? (await this.loadValidConfig());
      if (config) await this.supervisor.start(config);
      else {
        await this.supervisor.clear();
        this.coreLog.info('Agent running without a configuration: nothing to collect until one is saved.');
      }
      this.state = 'running';
      this.desired.save('running');
    } catch (cause) {
      this.state = 'failed';
      this.failure = `The agent failed to start: ${(cause as Error).message}`;
      this.coreLog.error(this.failure);
    }
    return this.state;
  }

  private async loadValidConfig(): Promise<Configuration | undefined> {
    const stored = this.config.load();
    if (!stored) return undefined;
    const { violations, config } = await this.validator.validate(stored.config, { wantConfig: true });
    const errors = violations.filter((v) => v.level === 'error');
    if (!config || errors.length > 0) {
      const first = errors[0];
      throw new Error(`the saved configuration has ${errors.length} ${errors.length === 1 ? 'error' : 'errors'}; first at ${JSON.stringify(first?.json_path)}: ${first?.description}`);
    }
    return config;
  }

  // ------------------------------------------------------------ status, streams, logs

  status(): Status {
    let services = this.supervisor.serviceStates();
    if (Object.keys(services).length === 0) {
      const raw = this.config.savedDocument();
      services = configuredServices(raw, this.registry);
    }
    return {
      backup: { config: this.config.backupState() },
      // Backlogs come from the store; one that cannot be opened (full disk) must not fail status.
      last_data_transmit: safely(() => this.flow.transmits.snapshot(this.store)) ?? this.flow.transmits.snapshot(undefined),
      machine_info: this.machineInfo.current(),
      agent: { status: this.state, services: withHealth(services, this.markers, unsentStreams(this.config.savedDocument())), problems: this.storage.problems() },
    };
  }

  streams(): StreamRecord[] {
    const config = this.config.savedDocument();
    // Counters and delivery from the store; one that cannot be opened (full disk) leaves what memory knows.
    const stored = safely(() => readStoredFlow(this.store));
    const transmits = new Set(configuredTransmits(config).map((t) => t.name));
    return streamRecords(configuredStreams(config), (asset, streamType) => this.markers.forStream(asset, streamType), (stream) => streamStats(this.flow, stored, stream, transmits), (stream) => this.flow.quality.findings(stream), unsentMarker(this.supervisor.serviceStates(), this.clock.nowMicros()));
  }

  /** Forgets read progress of the named streams so that their data is read and sent again. */
  restream(request: RestreamRequest): Promise<string> {
    return this.queue.run(() =>
      restreamStreams(request, {
        // The streams of the saved configuration with their receiver, read defensively.
        configured: configuredStreams(this.config.savedDocument()),
        running: this.state === 'running' && Object.keys(this.supervisor.serviceStates()).length > 0,
        supervisor: this.supervisor,
        store: this.store,
        log: this.coreLog,
      }),
    );
  }

  /**
   * Child nodes of an OPC UA node (default: the Objects folder) on the server of the saved receiver
   * `receiver`, for the console's tag picker. Throws AgentError (not_found: unknown receiver or
   * node; unavailable: server unreachable or not trusted).
   */
  browseOpcua(receiver: string, nodeId?: string): Promise<OpcuaBrowseNode[]> {
    const saved = this.config.savedDocument();
    return browseOpcua(saved, receiver, nodeId, { agentDataDirectory: this.options.dataDirectory, logger: this.coreLog.child(`receiver:${receiver}`) });
  }

  /** The last `lines` lines of a log that pass the query's filters, read while they are sent; the caller closes the slice. */
  openLog(name: LogName | 'audit', query: LogQuery): Promise<LogSlice> {
    return this.logs.slice(name, query);
  }
}
