import type { Logger } from '../logging/logger.js';
import type { MarkerReporter, StreamKey } from '../components/contract.js';
import type { AgentMessage } from '../../../shared/config/message.js';
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

  /** Marks the streams with the problem (in `words` around it, if given); returns what was said. */
  raise(problem: BrokerProblem, words: (problem: AgentMessage) => AgentMessage = (said) => said): AgentMessage {
    for (const other of BROKER_CATEGORIES) if (other !== problem.category) this.markers.clear(other, this.streams);
    const said = words(problem.said);
    this.markers.raise(this.streams, 'error', problem.category, said);
    // The same problem on every retry is logged once, not every few seconds.
    if (problem.message !== this.last) this.logger.warn(said.text);
    this.last = problem.message;
    return said;
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
