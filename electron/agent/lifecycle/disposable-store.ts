/**
 * One owner for everything a component starts: timers, subscriptions, aborts and child resources.
 * Modelled on VS Code's `DisposableStore`: register a resource when you create it, dispose the owner once.
 */
export interface Disposable {
  dispose(): void;
}

export type DisposableLike = Disposable | (() => void);

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private controller: AbortController | undefined;
  private isDisposed = false;

  get disposed(): boolean {
    return this.isDisposed;
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
    this.items.add(disposable);
    return disposable;
  }

  /** Disposes one resource now and forgets it. */
  delete(item: Disposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  /** A store disposed with this one (and removable from it on its own dispose). */
  child(): DisposableStore {
    const child = new DisposableStore();
    const link = this.add(() => child.dispose());
    child.add(() => this.items.delete(link));
    return child;
  }

  /** A timer cleared when the store is disposed; unref'd so it never keeps the process alive alone. */
  setTimeout(run: () => void, ms: number): Disposable {
    if (this.isDisposed) return { dispose: () => undefined };
    const handle = setTimeout(() => {
      this.items.delete(entry);
      run();
    }, ms);
    handle.unref?.();
    const entry: Disposable = { dispose: () => clearTimeout(handle) };
    this.items.add(entry);
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
}
