import type { ComponentType, ServiceStatus } from '../../../shared/api/resources.js';
import type { Clock } from '../time/clock.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerReporter, StreamKey } from '../markers/marker-store.js';
import type { Pipeline, RecordTransformLike } from '../pipeline/pipeline.js';
import type { TransmitStatsBoard } from '../pipeline/transmit-stats.js';
import type { AgentStore } from '../store/agent-store.js';

/** What every component gets from the supervisor. */
export interface ComponentContext {
  logger: Logger;
  markers: MarkerReporter;
  clock: Clock;
  /** Directory for this component's own files (certificates, caches). */
  dataDirectory: string;
  /** Streams of the whole configuration this component works on (its own, or matched by filter_stream). */
  streams: readonly StreamKey[];
  /** Root of the agent's data directory. */
  agentDataDirectory: string;
  /** Receivers hand what they read to the pipeline; transmits learn of queued records from it. */
  pipeline: Pipeline;
  /** Progress and outbox. */
  store: AgentStore;
  /** Transmits report deliveries here (status.last_data_transmit). */
  stats: TransmitStatsBoard;
}

/**
 * One receiver, transform or transmit, run as a service of the agent. `start` returns once the
 * component runs (or throws when it cannot); `stop` must finish within the supervisor's stop timeout
 * and be safe to call twice.
 */
export interface AgentComponent {
  readonly kind: ComponentType;
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): ServiceStatus;
  /** Receivers: forget the read progress of these streams, so their data is read and sent again. */
  purge?(streams: readonly StreamKey[]): Promise<void>;
}

/** Builds a component from its (parsed, defaults filled in) configuration block. */
export type ComponentFactory<TConfig = unknown> = (config: TConfig, context: ComponentContext) => AgentComponent;

/**
 * Component implementations by `<kind>:<type>`, e.g. `Receiver:localfile`, `Transform:rename`.
 * A component folder adds itself with one `register` line in the composition root.
 */
export class ComponentRegistry {
  private readonly factories = new Map<string, ComponentFactory<never>>();
  private readonly transforms = new Map<string, (config: never) => RecordTransformLike | undefined>();

  /** Transforms are pure record functions; the pipeline runs them in configuration order. */
  registerTransform<TConfig>(type: string, factory: (config: TConfig) => RecordTransformLike | undefined): this {
    this.transforms.set(type, factory as (config: never) => RecordTransformLike | undefined);
    return this;
  }

  transform(type: string): ((config: unknown) => RecordTransformLike | undefined) | undefined {
    return this.transforms.get(type) as ((config: unknown) => RecordTransformLike | undefined) | undefined;
  }

  /** True when this build can run the component type. */
  has(kind: ComponentType, type: string): boolean {
    return kind === 'Transform' ? this.transforms.has(type) : this.factories.has(`${kind}:${type}`);
  }

  register<TConfig>(kind: ComponentType, type: string, factory: ComponentFactory<TConfig>): this {
    this.factories.set(`${kind}:${type}`, factory as ComponentFactory<never>);
    return this;
  }

  get(kind: ComponentType, type: string): ComponentFactory<unknown> | undefined {
    return this.factories.get(`${kind}:${type}`) as ComponentFactory<unknown> | undefined;
  }
}
