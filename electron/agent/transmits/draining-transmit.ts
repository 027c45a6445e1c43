import type { ServiceStatus } from '../../../shared/api/resources.js';
import type { AgentMessage } from '../../../shared/config/message.js';
import type { AgentComponent, ComponentContext } from '../components/contract.js';
import { DrainLoop, type DrainOutcome, breathe, failureBackoffMs } from '../lifecycle/index.js';

/** What one round did: nothing was queued, it delivered (another round follows), or it asks for a back-off. */
export type RoundOutcome = 'empty' | 'delivered' | { backoffMs: number };

/**
 * What the transmits that empty their outbox in rounds share (csv, sql, influxdb): start and stop
 * around one DrainLoop, woken by records queued for this transmit and run again after the poll
 * interval; rounds one after the other until the outbox is empty, the event loop breathing between
 * them; the failures in a row that lengthen the back-off; a problem logged once until it changes.
 * A transmit says what one round does (`round`) and how a failure reads (`failed`). Running is the
 * loop not being disposed: no flag of its own.
 */
export abstract class DrainingTransmit implements AgentComponent {
  readonly kind = 'Transmit' as const;
  private loop: DrainLoop | undefined;
  /** Failed rounds in a row: each doubles the back-off (failureBackoffMs). */
  private failures = 0;
  /** The problem logged last: the same one again raises its marker but writes no new log line. */
  private lastProblem: string | undefined;

  protected constructor(
    readonly name: string,
    protected readonly context: ComponentContext,
    private readonly pollSeconds: number,
  ) {}

  async start(): Promise<void> {
    const loop: DrainLoop = new DrainLoop({
      drain: () => this.drain(loop),
      idleMs: () => this.pollSeconds * 1000,
      onError: (cause) => this.failed(cause),
      wake: (kick) => this.context.pipeline.onQueued((transmit) => transmit === this.name && kick()),
    });
    this.loop = loop;
    loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop?.dispose();
    await this.stopped();
  }

  status(): ServiceStatus {
    return this.loop && !this.loop.disposed ? 'running' : 'stopped';
  }

  /** One round: what is queued (a bounded part of it) delivered, or why not. */
  protected abstract round(): Promise<RoundOutcome>;

  /** A failed round or a drain that threw: stats, markers and log say why. */
  protected abstract failed(cause: unknown): void;

  /** After the loop ended on stop: let go of connections. */
  protected async stopped(): Promise<void> {}

  /** A round failed: reported, and the back-off for this many failures in a row. */
  protected failedRound(cause: unknown): { backoffMs: number } {
    this.failed(cause);
    this.failures += 1;
    return { backoffMs: failureBackoffMs(this.pollSeconds, this.failures) };
  }

  /** A round delivered: the failures in a row and the last problem are over. */
  protected succeeded(): void {
    this.failures = 0;
    this.lastProblem = undefined;
  }

  /** A problem as the operator sees it: the transmit's stats, an error marker on its streams, one log line per new message. */
  protected report(category: string, said: AgentMessage): void {
    const message = said.text;
    this.context.stats.failure(this.name, said);
    this.context.markers.raise(this.context.streams, 'error', category, said);
    if (message !== this.lastProblem) this.context.logger.error(message);
    this.lastProblem = message;
  }

  private async drain(loop: DrainLoop): Promise<DrainOutcome> {
    while (!loop.disposed) {
      const outcome = await this.round();
      if (outcome === 'empty') return undefined;
      if (outcome !== 'delivered') return outcome;
      await breathe(); // the API answers between rounds
    }
    return undefined;
  }
}
