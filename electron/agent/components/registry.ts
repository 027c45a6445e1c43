import type { ComponentType } from '../../../shared/api/resources.js';
import type { Transform } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { ComponentFactory, ComponentLoader, OutboxCodec, RecordTransform, TransformFactory } from './contract.js';
import { RECORDS_JSON } from './records-json-codec.js';
import type { ReceiverPreview, ReceiverPreviewLoader } from './receiver-preview.js';

/** What a receiver protocol can do besides running (each loaded on first use). */
export interface ReceiverCapabilities {
  /** POST /v1/config/preview: the first records of an unsaved receiver. */
  preview?: ReceiverPreviewLoader;
}

/** What reads a configuration entry into its checked form (a zod schema). */
export interface ConfigCheck<TConfig> {
  parse(config: unknown): TConfig;
}

interface TransmitEntry {
  outbox: OutboxCodec;
  load: ComponentLoader<never>;
}

/**
 * The component types this build can run, by `transmit_type`, `protocol` and `transform_type`: one
 * line each in built-in.ts. The main thread and every worker thread build the same registry from
 * that one module, so a transform or an outbox format registered there runs wherever records are
 * committed. Services are loaded on first use; transforms and outbox codecs, which the parse
 * workers run, are plain functions.
 */
export class ComponentRegistry {
  private readonly receivers = new Map<string, ComponentLoader<never>>();
  private readonly receiverCapabilities = new Map<string, ReceiverCapabilities>();
  private readonly transmits = new Map<string, TransmitEntry>();
  private readonly transforms = new Map<string, TransformFactory>();
  private readonly codecs = new Map<string, OutboxCodec>([[RECORDS_JSON.format, RECORDS_JSON]]);

  receiver<TConfig>(
    type: string,
    load: ComponentLoader<TConfig>,
    capabilities: ReceiverCapabilities = {},
  ): this {
    this.receivers.set(type, load as ComponentLoader<never>);
    this.receiverCapabilities.set(type, capabilities);
    return this;
  }

  /** The preview of a receiver protocol (loaded on first use); undefined when it has none. */
  async receiverPreview(protocol: string): Promise<ReceiverPreview<never> | undefined> {
    return (await this.receiverCapabilities.get(protocol)?.preview?.())?.default;
  }

  /** A transmit type: its outbox codec (runs in parse workers too) and its service. */
  transmit<TConfig, TOptions>(type: string, outbox: OutboxCodec<TOptions>, load: ComponentLoader<TConfig>): this {
    this.transmits.set(type, { outbox: outbox as OutboxCodec, load: load as ComponentLoader<never> });
    this.codecs.set(outbox.format, outbox as OutboxCodec);
    return this;
  }

  /** A format older builds stored, read back (their batches may still wait in the outbox or the KPI history). */
  reads(codec: OutboxCodec): this {
    this.codecs.set(codec.format, codec);
    return this;
  }

  /**
   * A transform type: a pure builder (runs in parse threads too) and what checks its configuration
   * entry (its schema). Without `check`, entries come checked: a parse thread's plans carry the
   * configuration the API thread validated, and the thread starts without the schemas (built-in.ts).
   */
  transform<TConfig>(type: string, create: (config: TConfig) => RecordTransform, check?: ConfigCheck<TConfig>): this {
    this.transforms.set(type, check ? (config) => create(check.parse(config)) : (config) => create(config as TConfig));
    return this;
  }

  /**
   * A component whose factory is at hand (tests' stand-ins). A transmit registered this way stores
   * records as they are (RECORDS_JSON).
   */
  register<TConfig>(kind: Exclude<ComponentType, 'Transform'>, type: string, factory: ComponentFactory<TConfig>): this {
    const load = async () => ({ default: factory as ComponentFactory<never> });
    if (kind === 'Receiver') this.receivers.set(type, load);
    else this.transmits.set(type, { outbox: RECORDS_JSON, load });
    return this;
  }

  /** True when this build can run the component type. */
  has(kind: ComponentType, type: string): boolean {
    if (kind === 'Receiver') return this.receivers.has(type);
    if (kind === 'Transmit') return this.transmits.has(type);
    return this.transforms.has(type);
  }

  /** The service factory of a receiver or transmit type (loaded on first use); undefined when this build has none. */
  async factory(kind: Exclude<ComponentType, 'Transform'>, type: string): Promise<ComponentFactory<unknown> | undefined> {
    const load = kind === 'Receiver' ? this.receivers.get(type) : this.transmits.get(type)?.load;
    return (await load?.())?.default as ComponentFactory<unknown> | undefined;
  }

  /** The transform for a configuration entry, or undefined when this build has no such type (records pass unchanged). */
  createTransform(config: Transform): RecordTransform | undefined {
    return this.transforms.get(config.transform_type)?.(config);
  }

  /**
   * How a transmit type stores its outbox. A type this build cannot run stores records as they are,
   * so that a build that has it can send them.
   */
  outbox(transmitType: string): OutboxCodec {
    return this.transmits.get(transmitType)?.outbox ?? RECORDS_JSON;
  }

  /** The outbox formats this registry reads. */
  readableFormats(): string[] {
    return [...this.codecs.keys()].sort();
  }

  /** The records of a stored outbox batch, by the format it was stored in. */
  decode(format: string, payload: Buffer): AgentRecord[] {
    const codec = this.codecs.get(format);
    if (!codec) throw new Error(`Outbox batches in the format "${format}" cannot be read by this build of Tributary.`);
    return codec.decode(payload);
  }
}
