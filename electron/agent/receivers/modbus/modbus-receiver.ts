import type { AgentComponent, ComponentContext, StreamKey } from '../../components/contract.js';
import { PollingLoop } from '../../lifecycle/index.js';
import { LinkError, ModbusLink } from './modbus-link.js';
import { LinkHealth } from '../link-health.js';
import { RefusedMarkers, submitPoll } from '../poll-records.js';
import { type ReadRequest, planReads } from './plan.js';
import { type ModbusReceiverConfig, planItems, pollOnce } from './poll.js';

export type { ModbusReceiverConfig };

/** A value the device refused (an exception answer): the stream goes on with the others. */
const EXCEPTION = 'modbus_exception';

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
  private readonly columns: string[][];
  private plan: ReadRequest[];
  private link: ModbusLink | undefined;
  private loop: PollingLoop | undefined;
  private readonly health: LinkHealth;
  private readonly refused: RefusedMarkers;

  constructor(
    private readonly config: ModbusReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    this.keys = config.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type }));
    this.columns = config.streams.map((s) => s.modbus_registers.map((r) => r.exportname));
    this.plan = planReads(planItems(config));
    this.health = new LinkHealth(context, this.keys);
    this.refused = new RefusedMarkers(context, this.keys, EXCEPTION);
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
    return this.health.down ? ('unknown' as const) : ('running' as const);
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
      this.health.up(this.link.label);
      this.refused.update(outcome.refused);
      await submitPoll(this.context, this.name, this.keys, this.columns, outcome);
    } catch (cause) {
      if (!this.loop) return;
      if (!(cause instanceof LinkError)) throw cause;
      const delay = this.health.failed(cause);
      this.link?.close();
      this.link = undefined;
      return delay;
    }
    return Math.max(0, started + interval - Date.now());
  }
}
