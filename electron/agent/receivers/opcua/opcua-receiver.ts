import path from 'node:path';
import type { z } from 'zod';
import type { OpcuaReceiverSchema } from '../../../../shared/config/schema.js';
import { tagNodeId } from '../../../../shared/config/receivers/opcua/rules.js';
import { streamId } from '../../../../shared/config/streams.js';
import type { StreamKey } from '../../components/contract.js';
import { BufferFullError } from '../../components/contract.js';
import type { AgentComponent, ComponentContext } from '../../components/contract.js';
import { type Disposable, DisposableStore } from '../../lifecycle/index.js';
import { BackfillGate } from './backfill-gate.js';
import { attachOpcuaLog } from './opcua-log.js';
import { installFastDateDecoding } from './opcua-date-decode.js';
import { ConnectError, OpcuaEndpoint, type OpenSession, securityOf } from './opcua-endpoint.js';
import { PollingReader } from './polling-reader.js';
import { type BuiltBatch, StreamRecords, type Tag } from './stream-records.js';
import { type ReaderEvents, SubscriptionReader } from './subscription-reader.js';
import { type Sample, type WatchedNode, indexTags } from './tag-index.js';
import { TagMarkers } from './tag-markers.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

export type OpcuaReceiverConfig = z.infer<typeof OpcuaReceiverSchema>;

const CONNECTION_CATEGORIES = ['connect_failed', 'connection_lost', 'certificate_untrusted', 'certificate_rejected', 'login_failed', 'endpoint_not_found'] as const;
const MAX_BACKOFF_MS = 10_000;
/** Values kept in memory while the outbox is full; beyond this the oldest are dropped, loudly. */
const MAX_PENDING_VALUES = 200_000;
const RETRY_FULL_MS = 1000;
const STOP_WAIT_MS = 5000;

/** 1 s for the first attempts (a server that is just starting), then doubling up to 10 s. */
function backoffMs(failures: number): number {
  return failures <= 5 ? 1000 : Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 5));
}

/** Folder of a receiver's certificates, under its component directory. */
export const pkiFolderOf = (componentDirectory: string) => path.join(componentDirectory, 'pki');

/**
 * Reads tags from one OPC UA server (the first connection; see docs/opcua.md). A connection loop
 * opens a session, reads by subscription or polling until the session is gone, then closes
 * everything and starts over with backoff: sessions and subscriptions are always rebuilt from
 * scratch after a server restart or network cut, so no stale session can leave the receiver stuck.
 * While disconnected the streams carry a marker and no values are recorded.
 */
export class OpcuaReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  /** New for every start: a stopped endpoint has released its certificate store. */
  private endpoint!: OpcuaEndpoint;
  private readonly streams: StreamKey[];
  private readonly nodes: WatchedNode[];
  private readonly tags: Tag[][];
  private readonly tagMarkers: TagMarkers;
  private records: StreamRecords[] = [];
  /** What one start owns: the log bridge (released last, after the endpoint) and `reading`. */
  private started: DisposableStore | undefined;
  /**
   * The connection loop's: the reader's stop, the back-off wait, the retry timer; disposed first by
   * stop. A loop that outlived a stop (slow connect) sees its own store disposed and ends.
   */
  private reading: DisposableStore | undefined;
  private connected = false;
  /** An attempt failed or the session was lost, and no session is open since. */
  private failing = false;
  private loop: Promise<void> | undefined;
  private reader: SubscriptionReader | PollingReader | undefined;
  private lostSince: string | undefined;
  private lastProblem = '';
  private pending: Sample[] = [];
  private retryTimer: Disposable | undefined;
  /** history_backfill: reads the gap from the server's history after each (re)connect. */
  readonly backfill: BackfillGate;

  constructor(
    private readonly config: OpcuaReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
    // Two timestamps a value: node-opcua's decoding of them cost more than the value (opcua-date-decode.ts).
    installFastDateDecoding();
    this.streams = config.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type }));
    // One Tag object per configured tag, shared by the node index and the stream records.
    this.tags = config.streams.map((s) => s.opcua_tags.map((t) => ({ node: tagNodeId(t), exportname: t.exportname })));
    const { nodes, invalid } = indexTags(this.tags);
    this.nodes = nodes;
    this.tagMarkers = new TagMarkers(this.streams, context.markers, invalid);
    this.backfill = new BackfillGate({
      streams: this.streams,
      markers: context.markers,
      saved: (stream, key) => context.store.streamState(this.name, this.streams[stream]!, key),
      lastMicros: (stream, exportname) => this.records[stream]?.lastMicros(exportname),
      commit: (samples, state) => this.deliverHistory(samples, state),
      warn: (message) => context.logger.warn(message),
      progress: (state) => this.streams.forEach((stream) => context.pipeline.backfilling(this.name, stream, state ?? null)),
    });
  }

  async start(): Promise<void> {
    const started = new DisposableStore();
    this.started = started;
    started.add(attachOpcuaLog(this.context.logger));
    this.endpoint = new OpcuaEndpoint(this.config.connections[0]!, pkiFolderOf(this.context.dataDirectory));
    const reading = started.child();
    this.reading = reading;
    this.failing = false;
    this.records = this.config.streams.map(
      (_, i) => new StreamRecords(this.streams[i]!, this.tags[i]!, (key) => this.context.store.streamState(this.name, this.streams[i]!, key)),
    );
    this.tagMarkers.showInvalid();
    // Certificate creation (first start only) and connecting happen in the loop: start returns at once.
    this.loop = this.connectLoop(this.endpoint, reading);
  }

  async stop(): Promise<void> {
    if (!this.running && !this.loop) return;
    // Stops the reader, ends the back-off wait and clears the retry timer.
    this.reading?.dispose();
    this.retryTimer = undefined;
    // A connection attempt in flight may take up to a few timeouts; the loop closes what it opened
    // once that returns, so stop does not wait for it longer than STOP_WAIT_MS.
    const waiting = new DisposableStore();
    await Promise.race([this.loop, waiting.delay(STOP_WAIT_MS)]);
    waiting.dispose();
    this.loop = undefined;
    await this.endpoint?.dispose();
    this.started?.dispose();
  }

  /**
   * running: a session is open and values flow, or the first attempt is still under way (a demo or
   * a plant starting together with its server must not flash `unknown`); unknown: an attempt failed
   * or the session was lost, and Tributary keeps trying; stopped.
   */
  status() {
    if (!this.running) return 'stopped' as const;
    return this.connected || !this.failing ? ('running' as const) : ('unknown' as const);
  }

  private get running(): boolean {
    return this.reading !== undefined && !this.reading.disposed;
  }

  async purge(streams: readonly StreamKey[]): Promise<void> {
    this.records.filter((r) => streams.some((s) => s.asset === r.stream.asset && s.stream_type === r.stream.stream_type)).forEach((r) => r.reset());
  }

  /** Connects, reads until the session is gone, and again after a back-off, until `resources` is disposed. */
  private async connectLoop(endpoint: OpcuaEndpoint, resources: DisposableStore): Promise<void> {
    const current = () => !resources.disposed;
    let failures = 0;
    while (current()) {
      let open: OpenSession | undefined;
      try {
        await endpoint.init();
        open = await endpoint.open({
          keepSessionAlive: this.config.read_mode === 'polling',
          onTrust: (how, print) =>
            this.context.logger.info(`The server certificate ${print} of ${endpoint.url} was added to the trust list (${how === 'trusted_on_first_use' ? 'trust_on_first_use' : 'trusted_server_certificates'}).`),
        });
        if (!current()) break;
        this.onConnected(open);
        failures = 0;
        const events = this.guardedEvents(endpoint.url);
        // Before the first live value: it ends each tag's gap (backfill-gate.ts).
        if (this.config.history_backfill) this.backfill.begin(this.nodes);
        const timeoutMs = this.config.connections[0]!.timeout * 1000;
        this.reader =
          this.config.read_mode === 'polling'
            ? new PollingReader(open, this.nodes, { pollIntervalMs: this.config.poll_interval * 1000, timeoutMs }, events)
            : new SubscriptionReader(open, this.nodes, { samplingIntervalMs: this.config.sampling_interval_ms, queueSize: this.config.queue_size, timeoutMs }, events);
        const reader = this.reader;
        const session = resources.child();
        session.add(() => reader.stop());
        let ended = false;
        const running = reader.run().finally(() => {
          ended = true;
          session.dispose();
        });
        if (this.config.history_backfill) {
          const settings = { maxHours: this.config.history_backfill_max_hours, timeoutMs };
          await this.backfill.run(open, this.nodes, settings, () => ended || !current());
        }
        const reason = await running;
        this.reader = undefined;
        this.connected = false;
        if (current()) this.onLost(reason);
        failures = 1;
      } catch (cause) {
        if (!current()) break;
        this.connected = false;
        failures += 1;
        this.onFailed(endpoint.explain(cause));
      } finally {
        if (resources === this.reading) this.reader = undefined;
        await open?.close();
      }
      if (current()) await resources.delay(backoffMs(failures));
    }
    if (resources === this.reading) this.connected = false;
  }

  /**
   * Values read from history with the gaps that remain, per stream: committed now (true), or not
   * at all while live values still wait for a full outbox (false; the backfill waits too).
   */
  private deliverHistory(samples: Sample[], state: ReadonlyMap<number, Record<string, string>>): boolean {
    if (this.pending.length > 0) return false;
    const byStream = groupByStream(samples);
    const batches = this.records.flatMap((records, index) => {
      if (!byStream.has(index) && !state.has(index)) return [];
      const batch = records.build(byStream.get(index) ?? [], this.context.clock.nowMicros(), true);
      this.tagMarkers.values(index, batch.reports);
      return [{ records, batch: { ...batch, state: state.get(index) ?? {} } }];
    });
    if (batches.length === 0) return true;
    const errors = this.context.pipeline.submitAll(this.name, batches.map(({ records, batch }) => ({ stream: records.stream, records: batch.records, progress: { state: batch.state } })));
    batches.forEach(({ records, batch }, index) => {
      if (errors[index] === undefined && batch.records.length > 0) this.context.pipeline.backfilled(this.name, records.stream, batch.records.length);
    });
    // A stream that could not store its part reads it again (at least once, with the same record ids).
    return errors.every((e) => e === undefined);
  }

  private onConnected(open: OpenSession): void {
    this.connected = true;
    this.failing = false;
    const { mode, policy } = securityOf(this.config.connections[0]!);
    for (const category of CONNECTION_CATEGORIES) this.context.markers.clear(category);
    const how = this.config.read_mode === 'polling' ? `polling every ${this.config.poll_interval} s` : `subscription, sampling every ${this.config.sampling_interval_ms} ms`;
    this.context.logger.info(
      `Connected to ${open.endpointUrl} (${mode}${mode === 'None' ? '' : `/${policy}`}, ${this.config.connections[0]!.username ? `user ${this.config.connections[0]!.username}` : 'anonymous'}${this.lostSince ? `; disconnected since ${this.lostSince}` : ''}); reading ${this.nodes.length} ${this.nodes.length === 1 ? 'node' : 'nodes'} by ${how}.`,
    );
    this.lostSince = undefined;
    this.lastProblem = '';
  }

  private onLost(reason: AgentMessage): void {
    this.failing = true;
    const since = (this.lostSince = new Date().toISOString());
    const url = this.endpoint.url;
    // Whether the gap is read from history is said by code too: one message each, not a fragment.
    this.raiseConnection(
      'connection_lost',
      this.config.history_backfill
        ? say('opcua.connection_lost_backfill', 'The connection to {url} was lost at {since} ({reason}). Tributary reconnects and rebuilds the session and subscription; the gap is read from the server\'s history after reconnecting.', { url, since, reason })
        : say('opcua.connection_lost', 'The connection to {url} was lost at {since} ({reason}). Tributary reconnects and rebuilds the session and subscription; no values are recorded for the gap.', { url, since, reason }),
    );
  }

  private onFailed(error: ConnectError): void {
    this.failing = true;
    const [url, since, problem] = [this.endpoint.url, this.lostSince, error.said];
    if (since && error.category === 'connect_failed') {
      this.raiseConnection(
        'connection_lost',
        this.config.history_backfill
          ? say('opcua.no_connection_since_backfill', 'No connection to {url} since {since}: {problem} Tributary keeps trying; the gap is read from the server\'s history after reconnecting.', { url, since, problem })
          : say('opcua.no_connection_since', 'No connection to {url} since {since}: {problem} Tributary keeps trying; no values are recorded for the gap.', { url, since, problem }),
      );
      return;
    }
    this.raiseConnection(error.category, error.category === 'connect_failed' ? say('opcua.keeps_trying', '{problem} Tributary keeps trying.', { problem }) : problem);
  }

  private raiseConnection(category: (typeof CONNECTION_CATEGORIES)[number], said: AgentMessage): void {
    for (const other of CONNECTION_CATEGORIES) if (other !== category) this.context.markers.clear(other);
    this.context.markers.raise(this.streams, 'error', category, said);
    if (said.text !== this.lastProblem) this.context.logger.warn(said.text);
    this.lastProblem = said.text;
  }

  /** The readers' callbacks: an exception in them is a failure of this receiver alone (logged, restarted). */
  private guardedEvents(url: string): ReaderEvents {
    const guard =
      <T>(during: string, handle: (value: T) => void) =>
      (value: T) => {
        try {
          handle(value);
        } catch (cause) {
          this.context.fail(cause, during);
        }
      };
    return {
      values: guard(`handling values from ${url}`, (samples: Sample[]) => this.deliver(samples)),
      nodeProblems: guard(`handling tag states from ${url}`, (problems: ReadonlyMap<WatchedNode, string>) => {
        this.tagMarkers.nodeProblems(problems);
        this.backfill.unmonitored(problems);
      }),
      failed: (cause, during) => this.context.fail(cause, during),
    };
  }

  /** Values → records per stream → pipeline; kept in memory (bounded) while the outbox is full. */
  private deliver(samples: Sample[]): void {
    if (this.config.history_backfill) this.backfill.live(samples);
    for (const sample of samples) this.pending.push(sample);
    if (this.pending.length > MAX_PENDING_VALUES) {
      const dropped = this.pending.length - MAX_PENDING_VALUES;
      this.pending.splice(0, dropped);
      const said = say('opcua.values_dropped', 'The outbox stayed full: {count} OPC UA value(s) were dropped (oldest first) because they cannot wait in memory any longer.', { count: dropped });
      this.context.markers.raise(this.streams, 'error', 'values_dropped', said);
      this.context.logger.error(said.text);
    }
    // The values of one publish, one batch per machine, are stored in one transaction (one WAL sync
    // for all machines, not one each); pipeline.submitAll stores them one by one when it must.
    const byStream = groupByStream(this.pending);
    const built: { records: StreamRecords; mine: Sample[]; batch: BuiltBatch; state: Record<string, string>; index: number }[] = [];
    this.records.forEach((records, index) => {
      const mine = byStream.get(index);
      if (!mine) return;
      const batch = records.build(mine, this.context.clock.nowMicros());
      this.tagMarkers.values(index, batch.reports);
      if (batch.records.length === 0) return;
      // Gaps that this stream's first live values opened go into the same transaction.
      const gaps = this.backfill.liveState(index);
      built.push({ records, mine, batch, state: gaps ? { ...batch.state, ...gaps } : batch.state, index });
    });
    const waiting: Sample[] = [];
    const errors = built.length === 0 ? [] : this.context.pipeline.submitAll(this.name, built.map(({ records, batch, state }) => ({ stream: records.stream, records: batch.records, progress: { state } })));
    built.forEach(({ records, mine, batch, index: stream }, index) => {
      const cause = errors[index];
      if (cause === undefined) {
        records.committed(batch);
        this.backfill.liveSaved(stream);
        this.context.markers.clear('store_failed', [records.stream]);
        return;
      }
      waiting.push(...mine);
      if (!(cause instanceof BufferFullError)) {
        const said = say('opcua.store_failed', 'Records of {stream} could not be stored: {error}. They are tried again.', { stream: streamId(records.stream.asset, records.stream.stream_type), error: cause.message });
        this.context.markers.raise([records.stream], 'error', 'store_failed', said);
        this.context.logger.error(said.text);
      }
    });
    this.pending = waiting;
    if (waiting.length > 0 && !this.retryTimer && this.running) {
      this.retryTimer = this.reading!.setTimeout(() => {
        this.retryTimer = undefined;
        this.deliver([]);
      }, RETRY_FULL_MS);
    }
  }
}

function groupByStream(samples: readonly Sample[]): Map<number, Sample[]> {
  const byStream = new Map<number, Sample[]>();
  for (const sample of samples) {
    const mine = byStream.get(sample.stream);
    if (mine) mine.push(sample);
    else byStream.set(sample.stream, [sample]);
  }
  return byStream;
}
