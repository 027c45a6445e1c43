import type { AgentComponent, ComponentContext, StreamKey } from '../components/contract.js';
import { PollingLoop } from '../lifecycle/index.js';
import { LinkError, LinkHealth } from './link-health.js';
import { type PolledValues, RefusedMarkers, submitPoll } from './poll-records.js';

/** A connection to one device (a Modbus TCP device or gateway, an S7 PLC). */
export interface DeviceLink {
  readonly open: boolean;
  /** The device in words (host and port) for logs and markers. */
  readonly label: string;
  connect(): Promise<void>;
  close(): void;
}

/** One poll's values and the values the device refused. */
export interface DevicePoll extends PolledValues {
  refused: readonly { item: { stream: number }; message: string }[];
}

interface DeviceReceiverConfig {
  data_receiver_name: string;
  poll_interval: number;
  streams: readonly { asset: string; stream_type: string }[];
}

/**
 * What the receivers of devices polled over one link share (modbus, s7): every poll_interval one
 * poll over the link, its records committed with other devices' polls (submitPoll), values the device
 * refused marked on their streams, a lost link retried with back-off while the streams say why
 * (LinkHealth). Nothing is kept between polls, so there is no progress to purge. A protocol says how
 * to open its link and how to poll it.
 */
export abstract class DeviceReceiver<TLink extends DeviceLink> implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  protected readonly keys: StreamKey[];
  private link: TLink | undefined;
  private loop: PollingLoop | undefined;
  private readonly health: LinkHealth;
  private readonly refused: RefusedMarkers;

  constructor(
    private readonly settings: DeviceReceiverConfig,
    /** Per stream, its values' column names in order. */
    private readonly columns: readonly (readonly string[])[],
    refusedCategory: string,
    protected readonly context: ComponentContext,
  ) {
    this.name = settings.data_receiver_name;
    this.keys = settings.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type }));
    this.health = new LinkHealth(context, this.keys);
    this.refused = new RefusedMarkers(context, this.keys, refusedCategory);
  }

  /** A new link to the device, not yet connected. */
  protected abstract openLink(): TLink;

  /** One poll over a connected link (a plan that has to change is changed, and logged, here). */
  protected abstract poll(link: TLink): Promise<DevicePoll>;

  async start(): Promise<void> {
    this.loop = new PollingLoop({
      step: () => this.step(),
      intervalMs: () => this.settings.poll_interval * 1000,
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
    // Each poll reads the device's current values: there is no progress to forget.
  }

  private async step(): Promise<number | void> {
    const started = Date.now();
    const interval = this.settings.poll_interval * 1000;
    try {
      if (!this.link?.open) {
        this.link?.close();
        this.link = this.openLink();
        await this.link.connect();
      }
      const link = this.link;
      const outcome = await this.poll(link);
      if (!this.loop) return;
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
