import { capViolations } from '../../../shared/config/limits.js';
import { error, say } from '../../../shared/config/violations.js';
import { type ValidationOutcome, validateConfiguration } from '../../../shared/config/validate.js';
import type { Logger } from '../logging/logger.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';
import type { PathContext } from '../../../shared/config/path-policy.js';
import { WorkerClient } from '../workers/worker-client.js';
import { threadScript } from '../workers/thread-scripts.js';
import type { ValidateRequest, ValidateResponse } from '../workers/validate-protocol.js';

/**
 * Documents with up to this many values are validated on the calling thread (a few milliseconds);
 * bigger ones in the validation thread, where even the largest accepted configuration (5,000
 * receivers, ~0.5 s cold) does not hold up the API.
 */
export const INLINE_VALUES = 4_000;

/** Heap of the validation thread: a document of 150,000 values with an issue in each fits. */
const VALIDATOR_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 };

/**
 * The validation thread ends after this long without a document: a big configuration is saved now
 * and then (a deploy), and the thread kept what it used for it (tens of MB: the whole schema, zod,
 * the document's issues) for the agent's whole life. It starts again on the next big document.
 */
export const VALIDATOR_IDLE_MS = 10_000;

/**
 * Counts the values of a JSON document, stopping once it passes `limit`. Children are counted as
 * they are met, without a list of each object's values: a 100,000-field object is past the limit
 * after `limit` of its keys, not after copying all of them (issue 50: saving it held status up).
 */
export function valuesUpTo(document: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    count += 1;
    if (count > limit) return limit + 1;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      if (count + stack.length + node.length > limit) return limit + 1;
      for (const child of node) stack.push(child);
      continue;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (count + stack.length + 1 > limit) return limit + 1;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return count;
}

/**
 * Validates configurations for the agent: the same `validateConfiguration` as everywhere, run
 * where it cannot block (small documents inline, big ones in a worker thread started on first
 * need), with at most MAX_VIOLATIONS violations and a summary of the rest.
 */
export class ConfigValidator {
  private worker: WorkerClient<ValidateRequest, ValidateResponse> | undefined;
  private inFlight = 0;
  /** The idle timer (a validation after close() starts the thread again, and its timer). */
  private readonly timers = new DisposableStore();
  private idleTimer: Disposable | undefined;

  constructor(
    private readonly logger: Logger,
    /** Where the agent runs: the path rules (CSV output confined to the data directory …). */
    private readonly context?: PathContext,
    private readonly idleMs = VALIDATOR_IDLE_MS,
  ) {}

  /** Whether the validation thread runs now (for tests and status). */
  get threadRunning(): boolean {
    return this.worker?.running ?? false;
  }

  async validate(document: unknown, options: { wantConfig?: boolean } = {}): Promise<ValidationOutcome> {
    if (valuesUpTo(document, INLINE_VALUES) <= INLINE_VALUES) {
      const outcome = validateConfiguration(document, this.context);
      return { ...outcome, violations: capViolations(outcome.violations) };
    }
    this.worker ??= new WorkerClient<ValidateRequest, ValidateResponse>(threadScript('validate'), 'validate', this.logger, VALIDATOR_LIMITS);
    if (this.idleTimer) this.timers.delete(this.idleTimer);
    this.idleTimer = undefined;
    this.inFlight += 1;
    let response: ValidateResponse;
    try {
      response = await this.worker.request({ document, wantConfig: options.wantConfig ?? false, context: this.context });
    } catch (cause) {
      response = { id: 0, ok: false, error: (cause as Error).message };
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.endWhenIdle();
    }
    if (response.ok) return { violations: response.violations, config: response.config };
    return { violations: [error([], say('config.not_validated', 'The configuration could not be validated ({cause}); it is too large or too complex. Nothing was saved.', { cause: response.error }))] };
  }

  async close(): Promise<void> {
    if (this.idleTimer) this.timers.delete(this.idleTimer);
    this.idleTimer = undefined;
    await this.worker?.close();
    this.worker = undefined;
  }

  /** Ends the thread after idleMs without a document (WorkerClient starts it again on the next). */
  private endWhenIdle(): void {
    this.idleTimer = this.timers.setTimeout(() => {
      this.idleTimer = undefined;
      if (this.inFlight === 0) void this.worker?.close();
    }, this.idleMs);
  }
}
