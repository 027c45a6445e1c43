import path from 'node:path';
import { say, type AgentMessage } from '../../../shared/config/message.js';
import type { ConfigChanges, ServiceStatus } from '../../../shared/api/resources.js';
import type { Configuration } from '../../../shared/config/schema.js';
import { streamId } from '../../../shared/config/streams.js';
import type { AgentComponent, AgentServices, ComponentContext, StreamKey } from '../components/contract.js';
import type { ComponentRegistry } from '../components/registry.js';
import type { RecordHistory } from '../kpi/record-history.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerStore } from '../markers/marker-store.js';
import type { HistoryTarget } from '../pipeline/batch-committer.js';
import { Pipeline, type RecordTap, type TransformStage, type TransmitRoute } from '../pipeline/pipeline.js';
import type { TransmitStatsBoard } from '../flow/transmit-stats.js';
import type { QualityWatch } from '../quality/quality-watch.js';
import type { StreamFlowBoard } from '../flow/stream-flow.js';
import type { AgentStore } from '../store/agent-store.js';
import type { Clock } from '../time/clock.js';
import { type RunningService, SERVICE_PREFIX, type ServiceSpec, planDeploy, serviceSpecs } from './deploy-plan.js';
import { TransformService } from './transform-service.js';
import { UnimplementedComponent } from './unimplemented.js';
import { componentFolderName } from '../../../shared/config/name-rules.js';
import { type Disposable, DisposableStore, breathe as nextTurn, finishesWithin } from '../lifecycle/index.js';

export interface SupervisorOptions {
  registry: ComponentRegistry;
  markers: MarkerStore;
  logger: Logger;
  clock: Clock;
  /** Parent of each component's own directory. */
  componentsDirectory: string;
  agentDataDirectory: string;
  store: AgentStore;
  stats: TransmitStatsBoard;
  /** Per-stream counters the pipeline feeds per commit. */
  flow?: StreamFlowBoard;
  /** Observers of committed records. */
  taps: ReadonlySet<RecordTap>;
  /** The data-quality watch: takes each configuration's data_quality and streams; watches while services run. */
  quality?: QualityWatch;
  /** The KPI history every commit keeps records in (its writer opened on use). */
  history?: { target: HistoryTarget; writer: () => RecordHistory };
  /** What the agent shares with every component (parse threads, storage health, write policy). */
  services: AgentServices;
  /** A component that does not stop within this time is logged and abandoned. */
  stopTimeoutMs?: number;
}

/** The context a service was built with; the supervisor keeps its stream list current. */
type ServiceContext = Omit<ComponentContext, 'streams'> & { streams: readonly StreamKey[] };

interface Service extends RunningService {
  spec: ServiceSpec;
  component: AgentComponent;
  context: ServiceContext;
  /** Failures in a row (each within two minutes of the restart before): the restart waits longer. */
  crashes?: { count: number; lastMs: number; timer?: Disposable };
}

/** First wait before a failed component restarts; doubled for each failure in a row, at most a minute. */
const RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 60_000;

const NO_CHANGES: ConfigChanges = { start: [], restart: [], stop: [], keep: [] };

/**
 * Lets the event loop run (the API answers) once `sliceMs` of work went by: starting or stopping
 * thousands of services one after the other is otherwise one long task, since a start that needs no
 * I/O resolves at once.
 */
function breather(sliceMs = 20): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await nextTurn();
    since = performance.now();
  };
}

/**
 * Owns one service per configured component and their lifecycle: start in pipeline order
 * (transmits, transforms, receivers, so that nothing produces before its consumers run), stop in
 * the reverse order, each stop bounded by a timeout. A new configuration is applied by restarting
 * only what changed (`apply`); the pipeline between them is reconfigured in place.
 */
export class Supervisor {
  private services = new Map<string, Service>();
  private pipeline: Pipeline | undefined;
  /** The timers of restarts after a failure (a service's own is disposed when it stops). */
  private readonly restarts = new DisposableStore();
  private readonly stopTimeoutMs: number;
  /** Changes with every stop: a restart scheduled before it must not start the component again. */
  private generation = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  }

  /** Builds and starts every component of `config`, after stopping all. One that fails to start is marked, not fatal. */
  async start(config: Configuration): Promise<void> {
    await this.stop();
    this.services.clear();
    this.options.markers.clearAll();
    this.pipeline = this.newPipeline();
    this.reconfigure(config);
    this.options.quality?.start();
    const specs = serviceSpecs(config);
    const breathe = breather();
    for (const spec of specs) {
      await breathe();
      await this.launch(spec);
    }
    this.options.logger.info(`Started ${specs.length} ${specs.length === 1 ? 'service' : 'services'}: ${specs.map((s) => s.id).join(', ') || 'none'}`);
  }

  /** What `apply(config)` would do to the services that run now. */
  plan(config: Configuration): ConfigChanges {
    return planDeploy(serviceSpecs(config), this.services);
  }

  /**
   * Applies a new configuration to running services: stops what is gone, restarts what changed,
   * starts what is new, and leaves the rest running untouched (connections, sessions, files being
   * read). Returns what it did.
   */
  async apply(config: Configuration): Promise<ConfigChanges> {
    if (!this.pipeline) {
      await this.start(config);
      return { ...NO_CHANGES, start: serviceSpecs(config).map((spec) => spec.id) };
    }
    const specs = serviceSpecs(config);
    const changes = planDeploy(specs, this.services);
    const leaving = new Set([...changes.stop, ...changes.restart, ...changes.start]);
    const stopping = [...this.services.values()].filter((service) => leaving.has(service.spec.id)).reverse();
    const breathe = breather();
    // Receivers first, so that nothing produces for a transform or transmit that is going away;
    // then the pipeline takes the new transforms and transmits (kept receivers commit through them
    // from their next batch on); then the transforms and transmits that go.
    for (const service of stopping.filter((s) => s.spec.kind === 'Receiver')) {
      await breathe();
      await this.retire(service);
    }
    this.reconfigure(config);
    for (const service of stopping.filter((s) => s.spec.kind !== 'Receiver')) {
      await breathe();
      await this.retire(service);
    }
    const keep = new Set(changes.keep);
    const kept = new Map(specs.filter((spec) => keep.has(spec.id)).map((spec) => [spec.id, spec]));
    for (const [id, spec] of kept) {
      const service = this.services.get(id)!;
      service.spec = spec;
      service.context.streams = spec.streams;
    }
    const order = new Map<string, Service>();
    for (const spec of specs) {
      if (!kept.has(spec.id)) await breathe();
      const service = kept.has(spec.id) ? this.services.get(spec.id)! : await this.launch(spec);
      order.set(spec.id, service);
    }
    this.services = order;
    this.options.markers.retainStreams(specs.filter((spec) => spec.kind === 'Receiver').flatMap((spec) => spec.streams));
    const list = (ids: string[]) => (ids.length > 0 ? ids.join(', ') : 'none');
    this.options.logger.info(
      `Configuration applied: restarted ${list(changes.restart)}; started ${list(changes.start)}; stopped ${list(changes.stop)}; kept running ${list(changes.keep)}`,
    );
    return changes;
  }

  /** Stops every service, newest first. Idempotent. */
  async stop(): Promise<void> {
    this.generation += 1;
    this.options.quality?.stop();
    const breathe = breather();
    for (const service of [...this.services.values()].reverse()) {
      await breathe();
      await this.stopService(service);
    }
  }

  /** Stops the services and forgets them (configuration removed, or not applied). */
  async clear(): Promise<void> {
    await this.stop();
    this.services.clear();
    this.pipeline?.dispose();
    this.pipeline = undefined;
  }

  serviceStates(): Record<string, { status: ServiceStatus }> {
    const out: Record<string, { status: ServiceStatus }> = {};
    for (const [id, s] of this.services) out[id] = { status: s.failed ? 'stopped' : s.component.status() };
    return out;
  }

  /** Stops the receiver, forgets the progress of the streams, starts it again if it ran. */
  async restream(receiverName: string, streams: readonly StreamKey[], restart: boolean): Promise<void> {
    const service = this.services.get(`${SERVICE_PREFIX.Receiver}:${receiverName}`);
    if (!service) throw new Error(`receiver "${receiverName}" has no service`);
    await this.stopService(service);
    this.options.store.purge(receiverName, streams);
    await service.component.purge?.(streams);
    this.options.logger.info(`Restream of ${streams.map((s) => streamId(s.asset, s.stream_type)).join(', ')} in ${service.spec.id}: progress forgotten`);
    if (restart) {
      service.failed = false;
      await service.component.start();
    }
  }

  private newPipeline(): Pipeline {
    const { store, registry, clock, logger, markers, taps, history, flow, quality } = this.options;
    return new Pipeline({ store, registry, clock, logger: logger.child('pipeline'), markers: markers.reporter('pipeline', 'Transmit'), taps, history, flow, quality });
  }

  /** The pipeline and the transmit statistics take the configuration's transforms and transmits. */
  private reconfigure(config: Configuration): void {
    const { registry, markers, logger, stats } = this.options;
    const stages: TransformStage[] = config.transforms.map((t) => ({
      name: t.transform_name,
      filter: t.filter_stream,
      config: t,
      markers: markers.reporter(t.transform_name, 'Transform'),
      logger: logger.child(`${SERVICE_PREFIX.Transform}:${t.transform_name}`),
    }));
    const routes: TransmitRoute[] = config.data_transmit.map((t) => ({
      name: t.transmit_name,
      type: t.transmit_type,
      filter: t.filter_stream,
      options: registry.outbox(t.transmit_type).options(t),
      maxBufferBytes: t.max_buffer_mb * 1024 * 1024,
      markers: markers.reporter(t.transmit_name, 'Transmit'),
      logger: logger.child(`${SERVICE_PREFIX.Transmit}:${t.transmit_name}`),
    }));
    this.options.quality?.configure(config.data_quality, config.data_receiver.flatMap((r) => r.streams.map((st) => ({ asset: st.asset, stream_type: st.stream_type }))));
    this.pipeline!.configure(stages, routes);
    stats.retain(config.data_transmit.map((t) => t.transmit_name));
    const { store } = this.options;
    for (const t of config.data_transmit) {
      const [name, type] = [t.transmit_name, t.transmit_type];
      stats.register(name, type, () => ({ records: store.sentBy(name), ...store.transmitTotals(name, type) }), (bytes, errors) => store.addTransmitTotals(name, type, bytes, errors));
    }
  }

  /** Builds and starts the service of `spec`; a failed start is marked on its streams, not fatal. */
  private async launch(spec: ServiceSpec): Promise<Service> {
    const { registry, markers, logger, store, stats } = this.options;
    const context: ServiceContext = {
      logger: logger.child(spec.id),
      markers: markers.reporter(spec.name, spec.kind),
      clock: this.options.clock,
      dataDirectory: path.join(this.options.componentsDirectory, SERVICE_PREFIX[spec.kind], componentFolderName(spec.name)),
      streams: spec.streams,
      agentDataDirectory: this.options.agentDataDirectory,
      pipeline: this.pipeline!,
      store,
      stats,
      decodeBatch: (format, payload) => registry.decode(format, payload),
      services: this.options.services,
      fail: (cause, during) => this.crashed(spec.id, context, cause, during),
    };
    let component: AgentComponent;
    if (spec.kind === 'Transform') {
      component = registry.has('Transform', spec.type) ? new TransformService(spec.name) : new UnimplementedComponent(spec.kind, spec.name, spec.type, context);
    } else {
      const factory = await registry.factory(spec.kind, spec.type);
      component = factory ? factory(spec.block, context) : new UnimplementedComponent(spec.kind, spec.name, spec.type, context);
    }
    const service: Service = { spec, signature: spec.signature, component, context, failed: false };
    this.services.set(spec.id, service);
    try {
      await component.start();
    } catch (cause) {
      service.failed = true;
      const said = say('component.start_failed', '{component} could not start: {error}', { component: spec.id, error: (cause as Error).message });
      logger.error(said.text);
      context.markers.raise(context.streams, 'error', 'start_failed', said);
    }
    return service;
  }

  /** Stops a service that goes (removed or changed) and clears its markers. */
  private async retire(service: Service): Promise<void> {
    await this.stopService(service);
    service.context.markers.clear();
    this.services.delete(service.spec.id);
  }

  /**
   * An exception escaped a component's callback: logged with its stack and marked, then the
   * component alone is stopped and started again after a back-off; the agent and the other
   * components run on. A failure of an instance that was replaced or stopped meanwhile is only logged.
   */
  private crashed(id: string, context: ServiceContext, cause: unknown, doing: string | AgentMessage): void {
    const { logger } = this.options;
    const during = typeof doing === 'string' ? doing : doing.text;
    const service = this.services.get(id);
    if (!service || service.context !== context) return logger.error(`${id} (no longer running) failed while ${during}`, cause);
    if (service.crashes?.timer) return logger.error(`${id} failed again while ${during} (a restart is already due)`, cause);
    const now = performance.now();
    const count = service.crashes && now - service.crashes.lastMs < MAX_RESTART_DELAY_MS + 60_000 ? service.crashes.count + 1 : 1;
    const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** (count - 1));
    const reason = cause instanceof Error ? cause.message : String(cause);
    const said = say('component.failed', '{component} failed while {during}: {error}. It restarts alone in {seconds} s; the rest of the agent runs on.', { component: id, during: doing, error: reason, seconds: delay / 1000 });
    logger.error(said.text, cause);
    context.markers.raise(context.streams, 'error', 'component_failed', said);
    const generation = this.generation;
    const current = () => this.generation === generation && this.services.get(id) === service;
    const timer = this.restarts.setTimeout(async () => {
      if (!current()) return;
      await this.stopService(service);
      service.crashes = { count, lastMs: performance.now() };
      if (!current()) return;
      try {
        await service.component.start();
        service.failed = false;
        if (!current()) return void (await this.stopService(service));
        logger.info(`${id} restarted after a failure.`);
        context.markers.raise(context.streams, 'warning', 'component_failed', say('component.restarted', '{component} failed while {during} ({error}) and was restarted; see agent_core.log.', { component: id, during: doing, error: reason }));
      } catch (error) {
        service.failed = true;
        logger.error(`${id} could not start again after a failure`, error);
        context.markers.raise(context.streams, 'error', 'start_failed', say('component.restart_failed', '{component} could not start again after a failure: {error}', { component: id, error: (error as Error).message }));
      }
    }, delay);
    service.crashes = { count, lastMs: now, timer };
  }

  private async stopService(service: Service): Promise<void> {
    if (service.crashes?.timer) {
      this.restarts.delete(service.crashes.timer);
      service.crashes.timer = undefined;
    }
    try {
      const finished = await finishesWithin(service.component.stop(), this.stopTimeoutMs);
      if (!finished) this.options.logger.error(`${service.spec.id} did not stop within ${this.stopTimeoutMs / 1000} s; abandoned`);
    } catch (cause) {
      this.options.logger.error(`${service.spec.id} failed while stopping`, cause);
    }
  }
}

export { configuredServices } from './configured-services.js';
