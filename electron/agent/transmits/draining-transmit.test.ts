import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { say } from '../../../shared/config/message.js';
import type { ComponentContext } from '../components/contract.js';
import { DrainingTransmit, type RoundOutcome } from './draining-transmit.js';

// setImmediate stays real: the rounds breathe with it between them.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
afterEach(() => vi.useRealTimers());

/** Lets the rounds that are due run (each breath is one real turn of the event loop), then advances `ms`. */
async function after(ms = 0): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) {
    await vi.advanceTimersByTimeAsync(0);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await vi.advanceTimersByTimeAsync(ms);
  for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

class Scripted extends DrainingTransmit {
  readonly rounds: string[] = [];
  stoppedCalls = 0;
  constructor(
    context: ComponentContext,
    private readonly script: Array<RoundOutcome | Error>,
  ) {
    super('archive', context, 1);
  }
  protected async round(): Promise<RoundOutcome> {
    const next = this.script.shift() ?? 'empty';
    this.rounds.push(next instanceof Error ? 'failed' : typeof next === 'string' ? next : 'backoff');
    if (next instanceof Error) return this.failedRound(next);
    if (next === 'delivered') this.succeeded();
    return next;
  }
  protected failed(cause: unknown): void {
    this.report('write_failed', say('test.write_failed', '{error}', { error: (cause as Error).message }));
  }
  protected override async stopped(): Promise<void> {
    this.stoppedCalls += 1;
  }
}

function fakeContext() {
  const queued = new Set<(transmit: string) => void>();
  const logged: string[] = [];
  const context = {
    streams: [],
    pipeline: { onQueued: (listener: (transmit: string) => void) => (queued.add(listener), () => queued.delete(listener)) },
    stats: { failure: vi.fn(), success: vi.fn() },
    markers: { raise: vi.fn(), clear: vi.fn() },
    logger: { error: (message: string) => logged.push(message) },
  } as unknown as ComponentContext;
  return { context, queued, logged };
}

describe('DrainingTransmit', () => {
  it('runs rounds until the outbox is empty, again after the poll interval and when records are queued', async () => {
    const { context, queued } = fakeContext();
    const transmit = new Scripted(context, ['delivered', 'delivered', 'empty', 'empty', 'delivered']);
    expect(transmit.status()).toBe('stopped');
    await transmit.start();
    expect(transmit.status()).toBe('running');
    await after();
    expect(transmit.rounds).toEqual(['delivered', 'delivered', 'empty']);
    await after(1000);
    expect(transmit.rounds).toHaveLength(4);
    for (const listener of queued) listener('archive');
    await after();
    expect(transmit.rounds).toEqual(['delivered', 'delivered', 'empty', 'empty', 'delivered', 'empty']);
    await transmit.stop();
    expect(transmit.status()).toBe('stopped');
    expect(transmit.stoppedCalls).toBe(1);
    expect(queued.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('backs off 1, 2, 4 s for failures in a row, logs a problem once until it changes, and starts afresh after a delivery', async () => {
    const { context, logged } = fakeContext();
    const down = () => new Error('database down');
    const transmit = new Scripted(context, [down(), down(), down(), 'delivered', 'empty', down()]);
    await transmit.start();
    await after();
    await after(999);
    expect(transmit.rounds).toEqual(['failed']);
    await after(1);
    expect(transmit.rounds).toHaveLength(2);
    await after(2000);
    expect(transmit.rounds).toHaveLength(3);
    await after(4000);
    expect(transmit.rounds).toEqual(['failed', 'failed', 'failed', 'delivered', 'empty']);
    await after(1000);
    expect(transmit.rounds).toHaveLength(6);
    expect(logged).toEqual(['database down', 'database down']);
    expect(context.stats.failure).toHaveBeenCalledTimes(4);
    await transmit.stop();
  });
});
