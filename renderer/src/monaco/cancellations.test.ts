import { describe, expect, it } from 'vitest';
import { isMonacoCancellation, quietMonacoCancellations } from './cancellations.js';

/** Monaco's CancellationError as its bundle makes it. */
function canceled(): Error {
  const error = new Error('Canceled');
  error.name = 'Canceled';
  return error;
}

describe('Monaco cancellations', () => {
  it('keeps only Monaco\'s "Canceled" rejections quiet; other rejections are still reported', () => {
    let listener: ((event: PromiseRejectionEvent) => void) | undefined;
    quietMonacoCancellations({ addEventListener: ((type: string, handler: (event: PromiseRejectionEvent) => void) => {
      expect(type).toBe('unhandledrejection');
      listener = handler;
    }) as Window['addEventListener'] });
    const prevented = (reason: unknown) => {
      let called = false;
      listener!({ reason, preventDefault: () => { called = true; } } as PromiseRejectionEvent);
      return called;
    };
    expect(prevented(canceled())).toBe(true);
    // A different error, or one that only looks like it: the browser reports these.
    expect(prevented(new Error('Canceled'))).toBe(false);
    expect(prevented(Object.assign(new Error('Canceled by the agent'), { name: 'Canceled' }))).toBe(false);
    expect(prevented({ name: 'Canceled', message: 'Canceled' })).toBe(false);
    expect(prevented(new TypeError('x is undefined'))).toBe(false);
    expect(isMonacoCancellation(undefined)).toBe(false);
  });
});
