import { countResources } from './census.js';

/**
 * The subscribers to one event of an agent part (records queued for a transmit, a storage problem
 * found or resolved). `subscribe` returns the unsubscribe; every subscription counts in
 * `undisposedResources()` until it is undone, so a component that forgets to unsubscribe when it
 * stops fails the leak test. Subscribing the same function twice is one subscription.
 */
export class Listeners<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  /** How many subscribe now. */
  get size(): number {
    return this.listeners.size;
  }

  subscribe(listener: (...args: A) => void): () => void {
    if (!this.listeners.has(listener)) {
      this.listeners.add(listener);
      countResources(1);
    }
    return () => {
      if (this.listeners.delete(listener)) countResources(-1);
    };
  }

  /** Calls every subscriber, in the order they subscribed. */
  emit(...args: A): void {
    for (const listener of this.listeners) listener(...args);
  }

  /** Drops every subscription (the part itself ends). */
  clear(): void {
    countResources(-this.listeners.size);
    this.listeners.clear();
  }
}
