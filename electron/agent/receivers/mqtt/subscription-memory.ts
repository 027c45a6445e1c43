import fs from 'node:fs';
import path from 'node:path';
import type { BrokerTarget } from '../../mqtt/broker-problems.js';

interface Remembered {
  url: string;
  clientId: string;
  filters: string[];
}

/**
 * Which filters the persistent session of a connection holds, kept in the component's folder. The
 * broker keeps subscriptions across connections and agent restarts: a resumed session needs only
 * the new ones (MQTT 3.1.1 would resend retained messages for every repeated subscription), and a
 * filter no stream reads any more is unsubscribed, or the broker would keep queuing its messages.
 */
export class SubscriptionMemory {
  constructor(private readonly file: string) {}

  changes(target: BrokerTarget, wanted: readonly string[], sessionPresent: boolean): { subscribe: string[]; unsubscribe: string[] } {
    const known = sessionPresent ? this.read(target) : undefined;
    if (!known) return { subscribe: [...wanted], unsubscribe: [] };
    return { subscribe: wanted.filter((f) => !known.includes(f)), unsubscribe: known.filter((f) => !wanted.includes(f)) };
  }

  remember(target: BrokerTarget, subscribed: readonly string[]): void {
    const known = this.read(target) ?? [];
    const filters = [...new Set([...known, ...subscribed])];
    const record: Remembered = { url: target.url, clientId: target.clientId, filters };
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(`${this.file}.tmp`, JSON.stringify(record));
      fs.renameSync(`${this.file}.tmp`, this.file);
    } catch {
      // Without the memory every connection subscribes to everything again: harmless.
    }
  }

  /** Drops filters that were unsubscribed. */
  forget(target: BrokerTarget, filters: readonly string[]): void {
    const known = this.read(target);
    if (!known) return;
    try {
      fs.writeFileSync(this.file, JSON.stringify({ url: target.url, clientId: target.clientId, filters: known.filter((f) => !filters.includes(f)) } satisfies Remembered));
    } catch {
      // See remember().
    }
  }

  private read(target: BrokerTarget): string[] | undefined {
    try {
      const record = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Partial<Remembered>;
      if (record.url !== target.url || record.clientId !== target.clientId || !Array.isArray(record.filters)) return undefined;
      return record.filters.filter((f): f is string => typeof f === 'string');
    } catch {
      return undefined;
    }
  }
}
