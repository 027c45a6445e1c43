import {
  AttributeIds,
  type ClientSessionRawSubscriptionService,
  ClientSubscription,
  type DataValue,
  MonitoringMode,
  TimestampsToReturn,
} from 'node-opcua-client';
import { DisposableStore } from '../../lifecycle/index.js';
import { type OpenSession, onSessionLost } from './opcua-endpoint.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { type Sample, type WatchedNode, chunks } from './tag-index.js';
import { describeStatus } from './values.js';

export interface ReaderEvents {
  values(samples: Sample[]): void;
  /** Status per node that the server refused (node id unknown …); an empty map when all are fine. */
  nodeProblems(problems: ReadonlyMap<WatchedNode, string>): void;
  /** An exception in a value handler: the receiver restarts alone (ComponentContext.fail). */
  failed(cause: unknown, during: string): void;
}

export interface SubscriptionSettings {
  samplingIntervalMs: number;
  queueSize: number;
  timeoutMs: number;
}

/**
 * The longest the server may hold sampled values before it publishes them (docs/decisions/
 * 0027-opcua-publishing-interval.md). The server samples at the configured sampling interval; the
 * publishing interval only decides how long a sampled value waits in the server's queue. Equal to
 * the sampling interval (as before) a value waited up to a whole interval more: source-to-record
 * latency up to twice the sampling interval. A publish cycle without values costs nothing on the
 * wire (the server answers a publish request only with values or a keep-alive).
 */
export const MAX_PUBLISHING_INTERVAL_MS = 250;
const MIN_PUBLISHING_INTERVAL_MS = 100;

export function publishingIntervalFor(samplingIntervalMs: number): number {
  return Math.min(MAX_PUBLISHING_INTERVAL_MS, Math.max(MIN_PUBLISHING_INTERVAL_MS, samplingIntervalMs || MIN_PUBLISHING_INTERVAL_MS));
}

/** Nodes the server refused are asked for again this often (a PLC download may add them). */
const RETRY_NODES_MS = 30_000;

/**
 * Reads by subscription: one subscription, monitored items created in chunks of the server's
 * MaxMonitoredItemsPerCall, values batched per publish response. `run` resolves with the reason
 * when the session is gone (connection closed, subscription terminated, no publish response or
 * keep-alive for too long) or `stop` was called; the receiver then rebuilds everything.
 */
export class SubscriptionReader {
  /** The session's listeners, timers and the watchdog; disposed when the session is lost or the reader stopped. */
  private readonly resources = new DisposableStore();
  private lose: ((reason: AgentMessage) => void) | undefined;
  private readonly problems = new Map<WatchedNode, string>();
  private pending: Sample[] = [];
  private flushScheduled = false;
  private lastActivity = Date.now();
  /** Client handles of this reader's monitored items (its subscription has no others). */
  private nextHandle = 0;

  constructor(
    private readonly open: OpenSession,
    private readonly nodes: readonly WatchedNode[],
    private readonly settings: SubscriptionSettings,
    private readonly events: ReaderEvents,
  ) {}

  async run(): Promise<AgentMessage> {
    const lost = new Promise<AgentMessage>((resolve) => {
      this.lose = (reason) => {
        if (this.resources.disposed) return;
        this.resources.dispose();
        resolve(reason);
      };
    });
    onSessionLost(this.open, this.resources, (reason) => this.lose?.(reason));
    const publishingInterval = publishingIntervalFor(this.settings.samplingIntervalMs);
    const keepAliveCount = Math.max(2, Math.ceil(10_000 / publishingInterval));
    const subscription = ClientSubscription.create(this.open.session, {
      requestedPublishingInterval: publishingInterval,
      requestedMaxKeepAliveCount: keepAliveCount,
      requestedLifetimeCount: keepAliveCount * 6,
      maxNotificationsPerPublish: 0,
      publishingEnabled: true,
      priority: 10,
    });
    subscription.on('keepalive', () => (this.lastActivity = Date.now()));
    subscription.on('terminated', () => this.lose?.(say('opcua.subscription_ended', 'the server ended the subscription')));
    subscription.on('internal_error', (error: Error) => this.lose?.(say('opcua.subscription_failed', 'the subscription failed: {error}', { error: error.message })));
    // node-opcua also emits 'error' when the server refuses to create the subscription
    // (BadTooManySubscriptions, a session closed meanwhile): an 'error' nobody listens to is thrown,
    // and would end the whole agent.
    subscription.on('error', (error: Error) => this.lose?.(say('opcua.subscription_not_created', 'the server did not create the subscription: {error}', { error: error.message })));
    subscription.on('status_changed', (status) => {
      if (describeStatus(status).quality === 'bad') this.lose?.(say('opcua.subscription_status_bad', 'the subscription reported {status}', { status: describeStatus(status).name }));
    });
    const refused = await this.answer((settle) => {
      subscription.once('started', () => settle());
      subscription.once('internal_error', (error: Error) => settle(error.message));
      subscription.once('error', (error: Error) => settle(error.message));
    }, say('opcua.subscription_late', 'the server did not create the subscription in time'));
    if (refused !== undefined) this.lose?.(typeof refused === 'string' ? say('opcua.subscription_not_created', 'the server did not create the subscription: {error}', { error: refused }) : refused);
    await this.monitor(subscription, this.nodes);
    this.events.nodeProblems(this.problems);
    // Watchdog: a publish response (data or keep-alive) must come within the keep-alive period.
    const silentLimit = publishingInterval * keepAliveCount + this.settings.timeoutMs + 5000;
    this.resources.setInterval(() => {
      if (Date.now() - this.lastActivity > silentLimit) this.lose?.(say('opcua.server_silent', 'no answer from the server for {seconds} s', { seconds: Math.round(silentLimit / 1000) }));
    }, 1000);
    this.resources.setInterval(() => {
      const missing = [...this.problems.keys()];
      if (missing.length > 0) void this.monitor(subscription, missing).then(() => this.events.nodeProblems(this.problems));
    }, RETRY_NODES_MS);
    try {
      return await lost;
    } finally {
      this.flush();
    }
  }

  stop(): void {
    this.lose?.(say('opcua.reader_stopped', 'stopped'));
  }

  /**
   * The server's answer to a request: undefined (done) or what failed; `late` after the timeout. A reader
   * that ends meanwhile stops waiting at once (its session is gone: no answer is coming).
   */
  private answer(ask: (settle: (failure?: AgentMessage | string) => void) => void, late: AgentMessage): Promise<AgentMessage | string | undefined> {
    return new Promise((resolve) => {
      const wait = this.resources.child();
      const settle = (failure?: AgentMessage | string) => {
        resolve(failure);
        wait.dispose();
      };
      wait.add(() => resolve(say('opcua.reader_ended', 'the reader ended')));
      wait.setTimeout(() => settle(late), this.settings.timeoutMs);
      ask(settle);
    });
  }

  /**
   * Creates the nodes' monitored items in chunks of the server's MaxMonitoredItemsPerCall, each
   * answered by a small dispatcher (ValueDispatch) that the subscription finds by client handle.
   * node-opcua's ClientMonitoredItemGroup kept seven objects per item for the subscription's life
   * (~0.6 KB: 12 MB at 20,000 tags) and an event per value; a refused node keeps no handle.
   */
  private async monitor(subscription: ClientSubscription, nodes: readonly WatchedNode[]): Promise<void> {
    // The subscription's table of items by client handle (node-opcua looks notifications up there).
    const table = subscription.monitoredItems as unknown as Record<number, ValueDispatch>;
    for (const chunk of chunks(nodes, this.open.limits.maxMonitoredItemsPerCall)) {
      if (this.resources.disposed) return;
      const dispatchers = chunk.map((node) => new ValueDispatch((this.nextHandle += 1), node, this));
      for (const dispatcher of dispatchers) table[dispatcher.handle] = dispatcher;
      let answer: { results?: { statusCode: unknown }[] | null } | undefined;
      const failure = await this.answer((settle) => {
        // The session node-opcua opens (ClientSessionImpl) has the raw service; its interface type omits it.
        (this.open.session as unknown as ClientSessionRawSubscriptionService)
          .createMonitoredItems({
            subscriptionId: subscription.subscriptionId,
            timestampsToReturn: TimestampsToReturn.Both,
            itemsToCreate: dispatchers.map(({ handle, node }) => ({
              itemToMonitor: { nodeId: node.nodeId, attributeId: AttributeIds.Value },
              monitoringMode: MonitoringMode.Reporting,
              requestedParameters: { clientHandle: handle, samplingInterval: this.settings.samplingIntervalMs, queueSize: this.settings.queueSize, discardOldest: true },
            })),
          })
          .then((response) => {
            answer = response;
            settle();
          })
          .catch((error: Error) => settle(error.message));
      }, say('opcua.no_answer_within', 'no answer within {seconds} s', { seconds: this.settings.timeoutMs / 1000 }));
      if (failure !== undefined) {
        for (const dispatcher of dispatchers) delete table[dispatcher.handle];
        this.lose?.(say('opcua.monitored_items_failed', 'creating monitored items failed: {error}', { error: failure }));
        return;
      }
      dispatchers.forEach((dispatcher, i) => {
        const status = describeStatus(answer?.results?.[i]?.statusCode as Parameters<typeof describeStatus>[0]);
        if (status.quality === 'bad') {
          // The server made no item: nothing comes for this handle (a retry makes a new one).
          delete table[dispatcher.handle];
          this.problems.set(dispatcher.node, status.name);
        } else this.problems.delete(dispatcher.node);
      });
    }
  }

  /** A value of a node (ValueDispatch); an exception fails the reader's receiver, not node-opcua. */
  changed(node: WatchedNode, dataValue: DataValue): void {
    try {
      this.receive(node, dataValue);
    } catch (cause) {
      this.events.failed(cause, `receiving a value of ${node.nodeId.toString()}`);
    }
  }

  private receive(node: WatchedNode, dataValue: DataValue): void {
    this.lastActivity = Date.now();
    // One object per reader of the value, no array between: thousands of values a second.
    for (const reader of node.readers) this.pending.push({ stream: reader.stream, tag: reader.tag, dataValue });
    // All changes of one publish response arrive in the same turn: deliver them together.
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.length === 0) return;
    const samples = this.pending;
    this.pending = [];
    this.events.values(samples);
  }
}

const VALUE_ATTRIBUTE = { attributeId: AttributeIds.Value };

/**
 * What node-opcua's subscription needs of a monitored item to hand it its values by client handle
 * (`itemToMonitor.attributeId`, `_notify_value_change`) and to end it with the subscription
 * (`monitoringParameters.clientHandle`, `_terminate_and_emit`): three fields per tag.
 */
class ValueDispatch {
  constructor(
    readonly handle: number,
    readonly node: WatchedNode,
    private readonly reader: SubscriptionReader,
  ) {}

  get itemToMonitor(): typeof VALUE_ATTRIBUTE {
    return VALUE_ATTRIBUTE;
  }

  get monitoringParameters(): { clientHandle: number } {
    return { clientHandle: this.handle };
  }

  _notify_value_change(dataValue: DataValue): void {
    this.reader.changed(this.node, dataValue);
  }

  _terminate_and_emit(): void {
    // Nothing to tell: the reader learns of the subscription's end by its own events.
  }
}
