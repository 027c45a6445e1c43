import type { Logger } from '../logging/logger.js';
import type { MarkerReporter, StreamKey } from '../components/contract.js';
import { BROKER_CATEGORIES, type BrokerProblem } from './broker-problems.js';

/**
 * The one broker problem a connection currently has, as an error marker on the streams it serves
 * (raising one category clears the others) and a log line when it changes.
 */
export class ConnectionMarkers {
  private last = '';

  constructor(
    private readonly markers: MarkerReporter,
    private readonly streams: readonly StreamKey[],
    private readonly logger: Logger,
  ) {}

  raise(problem: BrokerProblem, suffix = ''): void {
    for (const other of BROKER_CATEGORIES) if (other !== problem.category) this.markers.clear(other, this.streams);
    const message = `${problem.message}${suffix}`;
    this.markers.raise(this.streams, 'error', problem.category, message);
    // The same problem on every retry is logged once, not every few seconds.
    if (problem.message !== this.last) this.logger.warn(message);
    this.last = problem.message;
  }

  /** Connected again: every broker problem is over. */
  clear(): void {
    for (const category of BROKER_CATEGORIES) this.markers.clear(category, this.streams);
    this.last = '';
  }

  get problem(): string {
    return this.last;
  }
}
