/**
 * One connection to a broker, kept up: connect, run until the connection closes, wait with
 * exponential back-off, connect again with a new client. Each connection gets a fresh MQTT.js
 * client, so no state of a broken connection (half-sent packets, timers) leaks into the next; what
 * must survive a reconnect lives in the outbox (transmit) or in the broker's persistent session
 * (receiver). Used by both directions.
 */
import { type IConnackPacket, type MqttClient, connect } from 'mqtt';
import type { Logger } from '../logging/logger.js';
import { DisposableStore, finishesWithin } from '../lifecycle/index.js';
import { type BrokerSettings, type SessionOptions, brokerTarget, clientOptions } from './broker-options.js';
import { say } from '../../../shared/config/message.js';
import { type BrokerProblem, type BrokerTarget, brokerProblem, explainBrokerError, explainDisconnect } from './broker-problems.js';

export interface LinkEvents {
  /** Connected: subscribe, start publishing. */
  connected(client: MqttClient, sessionPresent: boolean): void;
  /** The connection is gone (after `connected`): forget what was in flight on it. */
  disconnected(): void;
  /** Connecting failed or the connection broke: say why (a marker, the status). */
  problem(problem: BrokerProblem, failures: number): void;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
const STOP_WAIT_MS = 3000;

/** 1, 2, 4 … 30 s, each ±20 % so that many agents do not all return to a restarted broker at once. */
export function retryDelayMs(failures: number, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export class BrokerLink {
  readonly target: BrokerTarget;
  /** One per start: disposed by stop(), which ends that start's loop and cuts its back-off short. */
  private running: DisposableStore | undefined;
  private loop: Promise<void> | undefined;
  private client: MqttClient | undefined;
  private live: MqttClient | undefined;
  /** A problem the owner found on a live connection (no PUBACK in time …): reported when it closes. */
  private brokenBy: BrokerProblem | undefined;

  constructor(
    private readonly settings: BrokerSettings,
    private readonly session: SessionOptions,
    private readonly logger: Logger,
    private readonly events: LinkEvents,
  ) {
    this.target = brokerTarget(settings, session.clientId);
  }

  /** The client while connected, else undefined. */
  get connected(): MqttClient | undefined {
    return this.live;
  }

  start(): void {
    if (this.running) return;
    this.running = new DisposableStore();
    this.loop = this.run(this.running);
  }

  /** Disconnects (gracefully, bounded) and ends the loop. Idempotent. */
  async stop(): Promise<void> {
    if (!this.running && !this.loop) return;
    this.running?.dispose();
    this.running = undefined;
    const client = this.client;
    if (client) {
      const ended = new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
      if (!(await finishesWithin(ended, STOP_WAIT_MS))) client.end(true);
    }
    await this.loop;
    this.loop = undefined;
  }

  /** The owner gave up on the live connection: close it; the loop reports `problem` and reconnects. */
  breakConnection(problem: BrokerProblem): void {
    if (!this.live) return;
    this.brokenBy = problem;
    this.live.end(true);
  }

  private async run(running: DisposableStore): Promise<void> {
    const current = () => !running.disposed;
    let failures = 0;
    while (current()) {
      const outcome = await this.connectOnce();
      if (!current()) break;
      failures = outcome.wasConnected ? 1 : failures + 1;
      const problem = outcome.problem ?? brokerProblem('connection_lost', say('mqtt.connection_closed', 'The connection to the broker at {url} closed.', { url: this.target.url }));
      this.events.problem(outcome.wasConnected && problem.category === 'broker_unreachable' ? { ...problem, category: 'connection_lost' } : problem, failures);
      await running.delay(retryDelayMs(failures));
    }
  }

  private connectOnce(): Promise<{ wasConnected: boolean; problem?: BrokerProblem }> {
    return new Promise((resolve) => {
      let options;
      try {
        options = clientOptions(this.settings, this.session);
      } catch (cause) {
        resolve({ wasConnected: false, problem: brokerProblem('certificate_untrusted', say('mqtt.ca_file_unreadable', 'Cannot read ca_file {ca_file}: {error}.', { ca_file: String(this.settings.ca_file), error: (cause as Error).message })) });
        return;
      }
      let wasConnected = false;
      let problem: BrokerProblem | undefined;
      this.brokenBy = undefined;
      const client = connect(options);
      this.client = client;
      client.on('connect', (connack: IConnackPacket) => {
        wasConnected = true;
        this.live = client;
        try {
          this.events.connected(client, connack.sessionPresent);
        } catch (cause) {
          this.logger.error('Setting up the MQTT connection failed', cause);
        }
      });
      // Keep the most telling problem: a refused login beats the "connection closed" after it.
      client.on('error', (cause) => {
        const explained = explainBrokerError(cause, this.target);
        if (!problem || problem.category === 'broker_unreachable') problem = explained;
        this.logger.debug(`MQTT client error: ${cause.message}`);
      });
      client.on('disconnect', (packet) => {
        problem = explainDisconnect(packet.reasonCode, this.target) ?? problem;
      });
      client.on('close', () => {
        if (this.client !== client) return;
        client.removeAllListeners('close');
        client.on('error', () => undefined);
        client.end(true);
        this.client = undefined;
        if (this.live === client) {
          this.live = undefined;
          this.events.disconnected();
        }
        resolve({ wasConnected, problem: this.brokenBy ?? problem });
      });
    });
  }
}
