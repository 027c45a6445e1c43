/**
 * What the polling receivers of devices (modbus, s7) share about their one connection: the faults a
 * link reports, the sentence for a refused TCP connection, and the health of the link between
 * polls: a fault marks every stream and is retried with back-off (1 s, 2 s, 4 s … at most a
 * minute) while the receiver reports `unknown`; the first good poll clears the marker.
 */
import { say, type AgentMessage } from '../../../shared/config/message.js';
import type { ComponentContext, StreamKey } from '../components/contract.js';

/** What broke a connection, as a marker category. */
export type LinkFault = 'connect_failed' | 'no_answer' | 'bad_answer' | 'connection_lost';
export const LINK_FAULTS: readonly LinkFault[] = ['connect_failed', 'no_answer', 'bad_answer', 'connection_lost'];

/** Reconnect back-off: 1 s, 2 s, 4 s … at most this. */
export const MAX_BACKOFF_MS = 60_000;

export class LinkError extends Error {
  constructor(
    readonly fault: LinkFault,
    /** The message with its code (issue 57): the console writes it in the operator's language. */
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }
}

/** A failed TCP connect, in words for the plant engineer. */
export function connectProblem(label: string, cause: NodeJS.ErrnoException): AgentMessage {
  switch (cause.code) {
    case 'ECONNREFUSED':
      return say('link.connect_refused', '{label} refused the connection: nothing listens on that port, or the device takes no more connections.', { label });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return say('link.host_unknown', '{label}: the host name is not known ({error}).', { label, error: cause.code });
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return say('link.network_unreachable', '{label} cannot be reached on the network ({error}).', { label, error: cause.code });
    default:
      return say('link.connect_failed', 'Connecting to {label} failed: {error}.', { label, error: cause.code ?? cause.message });
  }
}

/** The connection broke after it was made (a socket error). */
export const connectionBroke = (label: string, cause: NodeJS.ErrnoException) =>
  say('link.connection_broke', 'The connection to {label} broke: {error}.', { label, error: cause.code ?? cause.message });
/** The device closed the connection. */
export const closedByDevice = (label: string) => say('link.closed_by_device', '{label} closed the connection.', { label });
/** The connection was closed on this side (the receiver stopped, or after a fault). */
export const closedHere = (label: string) => say('link.closed', 'The connection to {label} was closed.', { label });
/** No connection within the timeout. */
export const connectTimeout = (label: string, seconds: number) => say('link.connect_timeout', '{label} did not accept a connection within {seconds} s.', { label, seconds });

export class LinkHealth {
  private failures = 0;
  /** The fault currently marked on every stream, if the connection is down. */
  private fault: LinkFault | undefined;

  constructor(
    private readonly context: Pick<ComponentContext, 'markers' | 'logger'>,
    private readonly keys: readonly StreamKey[],
  ) {}

  get down(): LinkFault | undefined {
    return this.fault;
  }

  /** A poll went through: clears the link markers (and says so once after an outage). */
  up(label: string): void {
    if (this.failures === 0 && this.fault === undefined) return;
    if (this.fault) this.context.logger.info(`${label}: reading again`);
    this.failures = 0;
    this.fault = undefined;
    for (const fault of LINK_FAULTS) this.context.markers.clear(fault, this.keys);
  }

  /** A poll failed on the link: marks the streams and returns the delay before the next attempt. */
  failed(error: LinkError): number {
    this.failures += 1;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.failures - 1));
    for (const fault of LINK_FAULTS) if (fault !== error.fault) this.context.markers.clear(fault, this.keys);
    const said = say('link.retry', '{problem} Next attempt in {seconds} s.', { problem: error.said, seconds: Math.round(delay / 1000) });
    this.context.markers.raise(this.keys, 'error', error.fault, said);
    if (this.fault !== error.fault || this.failures === 1) this.context.logger.warn(said.text);
    this.fault = error.fault;
    return delay;
  }
}
