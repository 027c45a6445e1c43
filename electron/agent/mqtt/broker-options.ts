/**
 * MQTT.js client options from a receiver connection or a transmit (the same broker fields).
 * MQTT.js's own reconnect is off: BrokerLink reconnects with exponential back-off instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { IClientOptions } from 'mqtt';
import type { BrokerTarget } from './broker-problems.js';

export interface BrokerSettings {
  host: string;
  port: number;
  username?: string;
  password?: string;
  client_id?: string;
  tls: boolean;
  ca_file?: string;
  reject_unauthorized: boolean;
  mqtt_version: '5' | '3.1.1';
  keepalive: number;
}

/**
 * tributary-<this PC>-<component>: stable across restarts (a persistent session is found again)
 * and different on every PC, so that two agents with the same configuration do not push each other
 * off the broker.
 */
export function defaultClientId(component: string, hostname = os.hostname()): string {
  return `tributary-${hostname}-${component}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 128);
}

export function brokerUrl(settings: Pick<BrokerSettings, 'host' | 'port' | 'tls'>): string {
  const host = settings.host.includes(':') && !settings.host.startsWith('[') ? `[${settings.host}]` : settings.host;
  return `${settings.tls ? 'mqtts' : 'mqtt'}://${host}:${settings.port}`;
}

export function brokerTarget(settings: BrokerSettings, clientId: string): BrokerTarget {
  return { url: brokerUrl(settings), username: settings.username || undefined, clientId, caFile: settings.ca_file };
}

export interface SessionOptions {
  clientId: string;
  /** false: a persistent session (the broker keeps subscriptions and queues QoS 1 messages). */
  clean: boolean;
  connectTimeoutMs: number;
  /** The will of each new connection (a Sparkplug NDEATH: asked again per connection for its bdSeq). */
  will?: () => NonNullable<IClientOptions['will']>;
}

/** Throws when ca_file cannot be read (the caller reports it like any connection problem). */
export function clientOptions(settings: BrokerSettings, session: SessionOptions): IClientOptions {
  const options: IClientOptions = {
    host: settings.host,
    port: settings.port,
    protocol: settings.tls ? 'mqtts' : 'mqtt',
    protocolVersion: settings.mqtt_version === '5' ? 5 : 4,
    clientId: session.clientId,
    clean: session.clean,
    keepalive: settings.keepalive,
    connectTimeout: session.connectTimeoutMs,
    reconnectPeriod: 0,
    // Messages are only sent while connected: the outbox, not MQTT.js's memory, holds what waits.
    queueQoSZero: false,
    resubscribe: false,
  };
  if (session.will) options.will = session.will();
  if (settings.username) options.username = settings.username;
  if (settings.password) options.password = settings.password;
  if (settings.mqtt_version === '5' && !session.clean) {
    // MQTT 5 ends a session when the connection closes unless asked otherwise: keep it (as
    // 3.1.1's clean session off does) for as long as the broker allows.
    options.properties = { sessionExpiryInterval: 0xffffffff };
  }
  if (settings.tls) {
    options.rejectUnauthorized = settings.reject_unauthorized;
    options.servername = /^[\d.]+$|:/.test(settings.host) ? undefined : settings.host;
    if (settings.ca_file) options.ca = fs.readFileSync(settings.ca_file);
  }
  return options;
}
