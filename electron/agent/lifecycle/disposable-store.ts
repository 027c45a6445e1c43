import { countResources } from './census.js';

/**
 * One owner for everything a component starts: timers, subscriptions, aborts and child resources.
 * Modelled on VS Code's `DisposableStore`: register a resource when you create it, dispose the owner once.
 *
 * What goes through a store (docs/architecture.md, "Everything that starts, stops"): every timer or
 * interval that outlives the call that made it, every listener on an emitter the component does not
 * own (a shared client, the process, another component), every socket, watcher, worker or child
 * process it opens. What need not: a wait that the same function awaits and clears in a `finally`
 * (a request's deadline), a pause of one turn of the event loop (`breathe()`), and listeners on an
 * object the component creates and destroys itself (they go with it).
 */
export interface Disposable {
  dispose(): void;
}

export type DisposableLike = Disposable | (() => void);

/** What `listen` subscribes to: a Node.js event emitter (a socket, a client, a worker, a watcher). */
export interface Emitter {
  on(event: string | symbol, listener: Listener): unknown;
  off(event: string | symbol, listener: Listener): unknown;
}

type Listener = (...args: unknown[]) => void;


export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private controller: AbortController | undefined;
  private isDisposed = false;

  get disposed(): boolean {
    return this.isDisposed;
  }

  /** The resources this store holds now (not those of its children). */
  get size(): number {
    return this.items.size;
  }

  /** Aborted when the store is disposed; created on first use. */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.isDisposed) this.controller.abort();
    return this.controller.signal;
  }

  /** Registers a resource; on a disposed store it is disposed at once, so a late start cannot leak. */
  add(item: DisposableLike): Disposable {
    const disposable = typeof item === 'function' ? { dispose: item } : item;
    if (this.isDisposed) {
      disposable.dispose();
      return disposable;
    }
    this.track(disposable);
    return disposable;
  }

  /** Disposes one resource now and forgets it. */
  delete(item: Disposable): void {
    if (this.forget(item)) item.dispose();
  }

  /** A store disposed with this one (and removable from it on its own dispose). */
  child(): DisposableStore {
    const child = new DisposableStore();
    const link = this.add(() => child.dispose());
    child.add(() => this.forget(link));
    return child;
  }

  /** Subscribes `listener` to `event` of `emitter` until the store is disposed (or the returned item is). */
  listen<A extends unknown[]>(emitter: Emitter, event: string | symbol, listener: (...args: A) => void): Disposable {
    if (this.isDisposed) return { dispose: () => undefined };
    emitter.on(event, listener as Listener);
    return this.add(() => emitter.off(event, listener as Listener));
  }

  /** `listen` for one event: the listener is removed after it ran once, or on dispose. */
  once<A extends unknown[]>(emitter: Emitter, event: string | symbol, listener: (...args: A) => void): Disposable {
    let subscription: Disposable | undefined = undefined;
    const once = (...args: A) => {
      if (subscription) this.delete(subscription);
      listener(...args);
    };
    subscription = this.listen(emitter, event, once);
    return subscription;
  }

  /** A timer cleared when the store is disposed; unref'd so it never keeps the process alive alone. */
  setTimeout(run: () => void, ms: number): Disposable {
    if (this.isDisposed) return { dispose: () => undefined };
    const handle = setTimeout(() => {
      this.forget(entry);
      run();
    }, ms);
    handle.unref?.();
    const entry: Disposable = { dispose: () => clearTimeout(handle) };
    this.track(entry);
    return entry;
  }

  /** Resolves after `ms`, or as soon as the store is disposed: a wait (a back-off) that a stop cuts short. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = this.child();
      wait.add(resolve);
      wait.setTimeout(() => wait.dispose(), ms);
    });
  }

  setInterval(run: () => void, ms: number): Disposable {
    if (this.isDisposed) return { dispose: () => undefined };
    const handle = setInterval(run, ms);
    handle.unref?.();
    return this.add(() => clearInterval(handle));
  }

  /** Idempotent; disposes in reverse order of registration and keeps going past a failing item. */
  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.controller?.abort();
    const items = [...this.items].reverse();
    countResources(-this.items.size);
    this.items.clear();
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several resources failed to dispose.');
  }

  private track(item: Disposable): void {
    if (this.items.has(item)) return;
    this.items.add(item);
    countResources(1);
  }

  private forget(item: Disposable): boolean {
    if (!this.items.delete(item)) return false;
    countResources(-1);
    return true;
  }
}
