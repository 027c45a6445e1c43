import crypto from 'node:crypto';
import { streamId } from '../../../../shared/config/streams.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { AgentComponent, ComponentContext, StreamKey } from '../../components/contract.js';
import { PollingLoop } from '../../lifecycle/index.js';
import { BufferFullError } from '../../components/contract.js';
import { LinkError, type LinkFault, ModbusLink } from './modbus-link.js';
import { type ReadRequest, planReads } from './plan.js';
import { type ModbusReceiverConfig, type PollOutcome, planItems, pollOnce } from './poll.js';

export type { ModbusReceiverConfig };

/** Reconnect back-off: 1 s, 2 s, 4 s … at most this. */
const MAX_BACKOFF_MS = 60_000;
const LINK_FAULTS: readonly LinkFault[] = ['connect_failed', 'no_answer', 'bad_answer', 'connection_lost'];
/** A value the device refused (an exception answer): the stream goes on with the others. */
const EXCEPTION = 'modbus_exception';

function recordId(receiver: string, key: StreamKey, timestamp: string): string {
  return crypto.createHash('sha256').update([receiver, key.asset, key.stream_type, timestamp].join('\0')).digest('hex').slice(0, 32);
}

/**
 * Reads Modbus TCP devices (docs/modbus.md): every poll_interval the read plan (plan.ts) goes to the
 * first connection's device or gateway, one request at a time, and each stream gets one record with
 * a column per configured value, time stamped when the last answer it needed arrived. Nothing is
 * kept between polls: a value that could not be read is null in that poll's record.
 */
export class ModbusReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly keys: StreamKey[];
  private plan: ReadRequest[];
  private link: ModbusLink | undefined;
  private loop: PollingLoop | undefined;
  private failures = 0;
  /** The fault currently marked on every stream, if the connection is down. */
  private down: LinkFault | undefined;
  /** Streams with an exception marker. */
  private refusedStreams = new Set<number>();

  constructor(
    private readonly config: ModbusReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    this.keys = config.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type }));
    this.plan = planReads(planItems(config));
  }

  async start(): Promise<void> {
    this.loop = new PollingLoop({
      step: () => this.step(),
      intervalMs: () => this.config.poll_interval * 1000,
      onError: (cause) => this.context.logger.error(`Polling failed: ${(cause as Error).message}`, cause),
    });
    this.loop.schedule(0);
  }

  async stop(): Promise<void> {
    const loop = this.loop;
    this.loop = undefined;
    this.link?.close();
    this.link = undefined;
    await loop?.dispose();
  }

  /** `unknown` while the device cannot be read (it retries; the markers say why). */
  status() {
    if (!this.loop) return 'stopped' as const;
    return this.down ? ('unknown' as const) : ('running' as const);
  }

  async purge(_streams: readonly StreamKey[]): Promise<void> {
    // A modbus receiver keeps no progress: each poll reads the device's current values.
  }

  private async step(): Promise<number | void> {
    const started = Date.now();
    const interval = this.config.poll_interval * 1000;
    const connection = this.config.connections[0]!;
    try {
      if (!this.link?.open) {
        this.link?.close();
        this.link = new ModbusLink({ host: connection.host, port: connection.port, timeoutMs: connection.timeout * 1000, units: this.config.streams.map((s) => s.unit_id) });
        await this.link.connect();
      }
      const outcome = await pollOnce(this.config, this.link, this.plan);
      if (!this.loop) return;
      if (outcome.replanned) {
        this.plan = outcome.replanned;
        this.context.logger.info(`${this.link.label}: a request was refused as an illegal address; its values are read one by one from now on (${this.plan.length} requests per poll).`);
      }
      this.connectionUp();
      this.markRefused(outcome);
      await this.submit(outcome);
    } catch (cause) {
      if (!this.loop) return;
      if (!(cause instanceof LinkError)) throw cause;
      return this.connectionDown(cause);
    }
    return Math.max(0, started + interval - Date.now());
  }

  private async submit(outcome: PollOutcome): Promise<void> {
    const batches = this.config.streams.flatMap((stream, s) => {
      const values = outcome.values[s]!;
      if (values.every((v) => v === undefined)) return [];
      const fieldvalues: Record<string, FieldValue> = {};
      stream.modbus_registers.forEach((register, v) => (fieldvalues[register.exportname] = values[v] ?? null));
      const time = isoMicros(BigInt(outcome.answeredAt[s]!) * 1000n);
      const key = this.keys[s]!;
      const record: AgentRecord = { ...key, timestamp: time, capturetime: time, fieldvalues, record_id: recordId(this.name, key, time) };
      return [{ stream: key, records: [record], progress: {} }];
    });
    if (batches.length === 0) return;
    const errors = await this.context.pipeline.submitSoon(this.name, batches);
    errors.forEach((error, i) => {
      // A full outbox is marked by the pipeline; this poll's values are gone (the device keeps no history).
      if (error && !(error instanceof BufferFullError)) this.context.logger.error(`${streamId(batches[i]!.stream.asset, batches[i]!.stream.stream_type)}: the record could not be stored: ${error.message}`);
    });
  }

  private markRefused(outcome: PollOutcome): void {
    const { markers, logger } = this.context;
    const byStream = new Map<number, string[]>();
    for (const refused of outcome.refused) byStream.set(refused.item.stream, [...(byStream.get(refused.item.stream) ?? []), refused.message]);
    for (const [s, messages] of byStream) {
      const message = `${messages.join(' ')} ${messages.length === 1 ? 'This value is' : 'These values are'} null in the records; the stream's other values go on.`;
      markers.raise([this.keys[s]!], 'error', EXCEPTION, message);
      if (!this.refusedStreams.has(s)) logger.warn(`${streamId(this.keys[s]!.asset, this.keys[s]!.stream_type)}: ${message}`);
    }
    for (const s of this.refusedStreams) if (!byStream.has(s)) markers.clear(EXCEPTION, [this.keys[s]!]);
    this.refusedStreams = new Set(byStream.keys());
  }

  private connectionUp(): void {
    if (this.failures === 0 && this.down === undefined) return;
    if (this.down) this.context.logger.info(`${this.link?.label ?? 'The device'}: reading again`);
    this.failures = 0;
    this.down = undefined;
    for (const fault of LINK_FAULTS) this.context.markers.clear(fault, this.keys);
  }

  private connectionDown(error: LinkError): number {
    this.failures += 1;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1));
    for (const fault of LINK_FAULTS) if (fault !== error.fault) this.context.markers.clear(fault, this.keys);
    const message = `${error.message} Next attempt in ${Math.round(delay / 1000)} s.`;
    this.context.markers.raise(this.keys, 'error', error.fault, message);
    if (this.down !== error.fault || this.failures === 1) this.context.logger.warn(message);
    this.down = error.fault;
    this.link?.close();
    this.link = undefined;
    return delay;
  }
}
