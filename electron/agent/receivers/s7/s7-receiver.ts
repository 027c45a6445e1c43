import type { AgentComponent, ComponentContext, StreamKey } from '../../components/contract.js';
import { PollingLoop } from '../../lifecycle/index.js';
import { LinkError, LinkHealth } from '../link-health.js';
import { RefusedMarkers, submitPoll } from '../poll-records.js';
import type { PlanItem } from './plan.js';
import { type S7Plan, type S7ReceiverConfig, itemKey, planFor, planItems, pollOnce } from './poll.js';
import { S7Link } from './s7-link.js';

export type { S7ReceiverConfig };

/** Values the PLC refused (a missing or optimized block, no PUT/GET access): the stream goes on with the others. */
export const REFUSED = 's7_refused';

/**
 * Reads a Siemens S7 PLC (docs/s7.md): every poll_interval the read plan (plan.ts, sized to the PDU
 * the PLC granted) goes over one connection, one job at a time, and each stream gets one record
 * with a column per configured value, time stamped when the last answer it needed arrived. Nothing
 * is kept between polls: a value that could not be read is null in that poll's record.
 */
export class S7Receiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private readonly keys: StreamKey[];
  private readonly columns: string[][];
  private readonly items: PlanItem[];
  /** Values read one by one since a merged range of theirs was refused. */
  private readonly single = new Set<string>();
  private plan: S7Plan | undefined;
  private link: S7Link | undefined;
  private loop: PollingLoop | undefined;
  private readonly health: LinkHealth;
  private readonly refused: RefusedMarkers;

  constructor(
    private readonly config: S7ReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    this.keys = config.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type }));
    this.columns = config.streams.map((s) => s.s7_tags.map((t) => t.exportname));
    this.items = planItems(config);
    this.health = new LinkHealth(context, this.keys);
    this.refused = new RefusedMarkers(context, this.keys, REFUSED);
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

  /** `unknown` while the PLC cannot be read (it retries; the markers say why). */
  status() {
    if (!this.loop) return 'stopped' as const;
    return this.health.down ? ('unknown' as const) : ('running' as const);
  }

  async purge(_streams: readonly StreamKey[]): Promise<void> {
    // An s7 receiver keeps no progress: each poll reads the PLC's current values.
  }

  private async step(): Promise<number | void> {
    const started = Date.now();
    const interval = this.config.poll_interval * 1000;
    const connection = this.config.connections[0]!;
    try {
      if (!this.link?.open) {
        this.link?.close();
        this.link = new S7Link({ host: connection.host, port: connection.port, rack: connection.rack, slot: connection.slot, timeoutMs: connection.timeout * 1000 });
        await this.link.connect();
      }
      const link = this.link;
      if (this.plan?.pduSize !== link.pduSize) this.plan = planFor(this.items, link.pduSize, this.single);
      const outcome = await pollOnce(this.config, link, this.plan);
      if (!this.loop) return;
      if (outcome.split.length > 0) {
        for (const item of outcome.split) this.single.add(itemKey(item));
        this.plan = planFor(this.items, link.pduSize, this.single);
        this.context.logger.info(`${link.label}: a range was refused; its ${outcome.split.length} values are read one by one from now on (${this.plan.requests.length} jobs per poll).`);
      }
      this.health.up(link.label);
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
