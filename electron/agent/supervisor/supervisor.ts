import path from 'node:path';
import type { Configuration } from '../../../shared/config/schema.js';
import { StreamSelector, streamId } from '../../../shared/config/streams.js';
import type { ComponentType, ServiceStatus } from '../../../shared/api/resources.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerStore, StreamKey } from '../markers/marker-store.js';
import { Pipeline, type RecordTap, type TransformStage } from '../pipeline/pipeline.js';
import type { TransmitStatsBoard } from '../pipeline/transmit-stats.js';
import type { AgentStore } from '../store/agent-store.js';
import type { AgentComponent, ComponentContext, ComponentRegistry } from './component.js';
import { TransformService } from './transform-service.js';
import { UnimplementedComponent } from './unimplemented.js';

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
  /** Observers of committed records (KPI history). */
  taps: ReadonlySet<RecordTap>;
  /** A component that does not stop within this time is logged and abandoned. */
  stopTimeoutMs?: number;
}

interface Service {
  id: string;
  component: AgentComponent;
  /** Set when start() threw: the service is down, the others keep running. */
  failed: boolean;
}

const SERVICE_PREFIX: Record<ComponentType, string> = { Receiver: 'receiver', Transform: 'transform', Transmit: 'transmit' };

/** Runs `work`, but gives up waiting after `ms`; reports whether it finished in time. */
async function withTimeout(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets the event loop run (the API answers) once `sliceMs` of work went by: starting or stopping
 * thousands of services one after the other is otherwise one long task, since a start that needs no
 * I/O resolves at once.
 */
function breather(sliceMs = 20): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/**
 * Owns one service per configured component and their lifecycle: start in pipeline order
 * (transmits, transforms, receivers, so that nothing produces before its consumers run), stop in
 * the reverse order, each stop bounded by a timeout.
 */
export class Supervisor {
  private services: Service[] = [];
  private readonly stopTimeoutMs: number;

  constructor(private readonly options: SupervisorOptions) {
    this.stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  }

  /** Builds and starts every component of `config`. One that fails to start is marked, not fatal. */
  async start(config: Configuration): Promise<void> {
    await this.stop();
    this.options.markers.clearAll();
    this.services = this.build(config);
    const breathe = breather();
    for (const service of this.services) {
      await breathe();
      try {
        await service.component.start();
      } catch (cause) {
        service.failed = true;
        const message = `${service.id} could not start: ${(cause as Error).message}`;
        this.options.logger.error(message);
        this.contextFor(service).markers.raise(this.streamsOf(service), 'error', 'start_failed', message);
      }
    }
    const count = this.services.length;
    this.options.logger.info(`Started ${count} ${count === 1 ? 'service' : 'services'}: ${this.services.map((s) => s.id).join(', ') || 'none'}`);
  }

  /** Stops every service, newest first. Idempotent. */
  async stop(): Promise<void> {
    const breathe = breather();
    for (const service of [...this.services].reverse()) {
      await breathe();
      await this.stopService(service);
    }
  }

  /** Stops the services and forgets them (configuration removed). */
  async clear(): Promise<void> {
    await this.stop();
    this.services = [];
  }

  serviceStates(): Record<string, { status: ServiceStatus }> {
    const out: Record<string, { status: ServiceStatus }> = {};
    for (const s of this.services) out[s.id] = { status: s.failed ? 'stopped' : s.component.status() };
    return out;
  }

  /** Stops the receiver, forgets the progress of the streams, starts it again if it ran. */
  async restream(receiverName: string, streams: readonly StreamKey[], restart: boolean): Promise<void> {
    const service = this.services.find((s) => s.component.kind === 'Receiver' && s.component.name === receiverName);
    if (!service) throw new Error(`receiver "${receiverName}" has no service`);
    await this.stopService(service);
    this.options.store.purge(receiverName, streams);
    await service.component.purge?.(streams);
    this.options.logger.info(`Restream of ${streams.map((s) => streamId(s.asset, s.stream_type)).join(', ')} in ${service.id}: progress forgotten`);
    if (restart) {
      service.failed = false;
      await service.component.start();
    }
  }

  private async stopService(service: Service): Promise<void> {
    try {
      const finished = await withTimeout(service.component.stop(), this.stopTimeoutMs);
      if (!finished) this.options.logger.error(`${service.id} did not stop within ${this.stopTimeoutMs / 1000} s; abandoned`);
    } catch (cause) {
      this.options.logger.error(`${service.id} failed while stopping`, cause);
    }
  }

  private readonly contexts = new Map<string, ComponentContext>();
  private contextFor(service: Service): ComponentContext {
    return this.contexts.get(service.id)!;
  }
  private streamsOf(service: Service): readonly StreamKey[] {
    return this.contextFor(service).streams;
  }

  private build(config: Configuration): Service[] {
    this.contexts.clear();
    const { registry, markers, logger, store, stats } = this.options;
    const allStreams: StreamKey[] = config.data_receiver.flatMap((r) => r.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type })));
    const selector = new StreamSelector(allStreams);
    const matched = (filter: readonly string[] | undefined) => selector.select(filter);

    const stages: TransformStage[] = config.transforms.map((t) => ({
      name: t.transform_name,
      filter: t.filter_stream,
      transform: registry.transform(t.transform_type)?.(t),
      config: t,
      markers: markers.reporter(t.transform_name, 'Transform'),
      logger: logger.child(`${SERVICE_PREFIX.Transform}:${t.transform_name}`),
    }));
    const pipeline = new Pipeline(
      store,
      stages,
      config.data_transmit.map((t) => ({
        name: t.transmit_name,
        filter: t.filter_stream,
        maxBufferBytes: t.max_buffer_mb * 1024 * 1024,
        // Upload batches are stored as request bodies (before encryption), encoded once when committed.
        format: t.transmit_type === 'remotedatapost' ? ('upload' as const) : ('json' as const),
        batchRecords: 'max_request_records' in t && typeof t.max_request_records === 'number' ? t.max_request_records : Number.POSITIVE_INFINITY,
        markers: markers.reporter(t.transmit_name, 'Transmit'),
        logger: logger.child(`${SERVICE_PREFIX.Transmit}:${t.transmit_name}`),
      })),
      logger.child('pipeline'),
      markers.reporter('pipeline', 'Transmit'),
      this.options.taps,
    );
    stats.retain(config.data_transmit.map((t) => t.transmit_name));
    for (const t of config.data_transmit) stats.register(t.transmit_name, t.transmit_type);

    const entries: { kind: ComponentType; name: string; type: string; block: unknown; streams: StreamKey[] }[] = [
      ...config.data_transmit.map((t) => ({ kind: 'Transmit' as const, name: t.transmit_name, type: t.transmit_type, block: t, streams: matched(t.filter_stream) })),
      ...config.transforms.map((t) => ({ kind: 'Transform' as const, name: t.transform_name, type: t.transform_type, block: t, streams: matched(t.filter_stream) })),
      ...config.data_receiver.map((r) => ({
        kind: 'Receiver' as const,
        name: r.data_receiver_name,
        type: r.protocol,
        block: r,
        streams: r.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type })),
      })),
    ];
    return entries.map((entry) => {
      const id = `${SERVICE_PREFIX[entry.kind]}:${entry.name}`;
      const context: ComponentContext = {
        logger: logger.child(id),
        markers: markers.reporter(entry.name, entry.kind),
        clock: this.options.clock,
        dataDirectory: path.join(this.options.componentsDirectory, SERVICE_PREFIX[entry.kind], encodeURIComponent(entry.name)),
        streams: entry.streams,
        agentDataDirectory: this.options.agentDataDirectory,
        pipeline,
        store,
        stats,
      };
      this.contexts.set(id, context);
      let component: AgentComponent;
      if (entry.kind === 'Transform') {
        const stage = stages.find((s) => s.name === entry.name);
        component = stage?.transform ? new TransformService(entry.name) : new UnimplementedComponent(entry.kind, entry.name, entry.type, context);
      } else {
        const factory = registry.get(entry.kind, entry.type);
        component = factory ? factory(entry.block, context) : new UnimplementedComponent(entry.kind, entry.name, entry.type, context);
      }
      return { id, component, failed: false };
    });
  }
}

/**
 * Service ids and states of a configuration that is not running: `stopped` for component types this
 * build has, `unknown` for those it has not. Reads a raw document defensively.
 */
export function configuredServices(raw: unknown, registry: ComponentRegistry): Record<string, { status: ServiceStatus }> {
  const out: Record<string, { status: ServiceStatus }> = {};
  const doc = (raw ?? {}) as Record<string, unknown>;
  const sections: [string, ComponentType, string, string][] = [
    ['data_transmit', 'Transmit', 'transmit_name', 'transmit_type'],
    ['transforms', 'Transform', 'transform_name', 'transform_type'],
    ['data_receiver', 'Receiver', 'data_receiver_name', 'protocol'],
  ];
  for (const [section, kind, nameKey, typeKey] of sections) {
    const list = doc[section];
    if (!Array.isArray(list)) continue;
    for (const item of list as Record<string, unknown>[]) {
      if (typeof item?.[nameKey] !== 'string') continue;
      out[`${SERVICE_PREFIX[kind]}:${String(item[nameKey])}`] = { status: registry.has(kind, String(item[typeKey])) ? 'stopped' : 'unknown' };
    }
  }
  return out;
}
