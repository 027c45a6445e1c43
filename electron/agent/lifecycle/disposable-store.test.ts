import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { undisposedResources } from './census.js';
import { DisposableStore } from './disposable-store.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('DisposableStore', () => {
  it('disposes functions and objects once, newest first, however often dispose is called', () => {
    const store = new DisposableStore();
    const order: string[] = [];
    store.add(() => order.push('first'));
    store.add({ dispose: () => order.push('second') });
    store.dispose();
    store.dispose();
    expect(order).toEqual(['second', 'first']);
    expect(store.disposed).toBe(true);
  });

  it('disposes a resource added after dispose at once, so a late start cannot leak', () => {
    const store = new DisposableStore();
    store.dispose();
    const late = vi.fn();
    store.add(late);
    expect(late).toHaveBeenCalledOnce();
  });

  it('clears its timers and intervals on dispose', () => {
    const store = new DisposableStore();
    const timeout = vi.fn();
    const interval = vi.fn();
    store.setTimeout(timeout, 100);
    store.setInterval(interval, 10);
    vi.advanceTimersByTime(25);
    expect(interval).toHaveBeenCalledTimes(2);
    store.dispose();
    vi.advanceTimersByTime(1000);
    expect(timeout).not.toHaveBeenCalled();
    expect(interval).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets a timer that has fired, and starts none once disposed', () => {
    const store = new DisposableStore();
    const fired = vi.fn();
    store.setTimeout(fired, 5);
    vi.advanceTimersByTime(5);
    expect(fired).toHaveBeenCalledOnce();
    store.dispose();
    store.setTimeout(fired, 5);
    vi.advanceTimersByTime(50);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('aborts its signal on dispose, also when the signal is asked for afterwards', () => {
    const store = new DisposableStore();
    const signal = store.signal;
    expect(signal.aborted).toBe(false);
    store.dispose();
    expect(signal.aborted).toBe(true);
    const late = new DisposableStore();
    late.dispose();
    expect(late.signal.aborted).toBe(true);
  });

  it('ends a delay after its time, or at once when the store is disposed, and leaves nothing behind', async () => {
    const store = new DisposableStore();
    let first = false;
    void store.delay(100).then(() => (first = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(first).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first).toBe(true);
    let second = false;
    void store.delay(60_000).then(() => (second = true));
    store.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(second).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await store.delay(60_000);
  });

  it('disposes a child with its parent, and a child disposed alone leaves the parent running', () => {
    const parent = new DisposableStore();
    const child = parent.child();
    const childItem = vi.fn();
    child.add(childItem);
    parent.dispose();
    expect(childItem).toHaveBeenCalledOnce();
    expect(child.disposed).toBe(true);

    const other = new DisposableStore();
    const alone = other.child();
    alone.dispose();
    expect(other.disposed).toBe(false);
    const still = vi.fn();
    other.add(still);
    other.dispose();
    expect(still).toHaveBeenCalledOnce();
  });

  it('disposes every item even when one throws, then reports the failure', () => {
    const store = new DisposableStore();
    const after = vi.fn();
    store.add(after);
    store.add(() => {
      throw new Error('socket already gone');
    });
    expect(() => store.dispose()).toThrow('socket already gone');
    expect(after).toHaveBeenCalledOnce();
  });

  it('listens to an emitter until disposed, or until the one subscription is disposed', () => {
    const store = new DisposableStore();
    const emitter = new EventEmitter();
    const heard: number[] = [];
    const subscription = store.listen(emitter, 'value', (value: number) => heard.push(value));
    store.listen(emitter, 'value', (value: number) => heard.push(value * 10));
    emitter.emit('value', 1);
    store.delete(subscription);
    emitter.emit('value', 2);
    store.dispose();
    emitter.emit('value', 3);
    expect(heard).toEqual([1, 10, 20]);
    expect(emitter.listenerCount('value')).toBe(0);
    store.listen(emitter, 'value', () => heard.push(99));
    expect(emitter.listenerCount('value')).toBe(0);
  });

  it('once: the listener runs for the first event only and is removed then, or on dispose', () => {
    const store = new DisposableStore();
    const emitter = new EventEmitter();
    const heard: string[] = [];
    store.once(emitter, 'close', (why: string) => heard.push(why));
    emitter.emit('close', 'first');
    emitter.emit('close', 'second');
    expect(heard).toEqual(['first']);
    expect(emitter.listenerCount('close')).toBe(0);
    expect(store.size).toBe(0);
    store.once(emitter, 'close', () => heard.push('never'));
    store.dispose();
    emitter.emit('close', 'third');
    expect(heard).toEqual(['first']);
  });

  it('counts what every store holds undisposed, so a test can see a resource left behind', () => {
    const before = undisposedResources();
    const store = new DisposableStore();
    const child = store.child();
    store.setTimeout(() => undefined, 100);
    store.setInterval(() => undefined, 100);
    child.add(() => undefined);
    store.listen(new EventEmitter(), 'data', () => undefined);
    // the timeout, the interval, the listener, the child's link and its unlink, and the child's item
    expect(undisposedResources() - before).toBe(6);
    expect(store.size).toBe(4);
    vi.advanceTimersByTime(100);
    expect(undisposedResources() - before).toBe(5);
    child.dispose();
    expect(undisposedResources() - before).toBe(2);
    store.dispose();
    expect(undisposedResources()).toBe(before);
  });
});
