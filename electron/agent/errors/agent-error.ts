/**
 * What went wrong, in the agent's words. The agent knows nothing of HTTP: it says which kind of
 * failure this is, and the API (electron/api/agent-error-status.ts) maps the kind to a status code.
 */
export type AgentErrorKind =
  /** The request itself is wrong (a time that is not a time, a range too large). */
  | 'bad_request'
  /** What the request names does not exist (a receiver, a KPI, a node, a saved configuration). */
  | 'not_found'
  /** Someone else changed it since it was read (a save over a newer revision). */
  | 'conflict'
  /** Understood, but it cannot be done as it is (a configuration or KPI with errors). */
  | 'unprocessable'
  /** Too many such requests are running; try again in a moment. */
  | 'busy'
  /** The disk is full: nothing was written. */
  | 'disk_full'
  /** Something the agent needs does not answer (a server, a database file). */
  | 'unavailable'
  /** It was tried and failed (a restream, a write that is not a full disk). */
  | 'failed';

export interface AgentErrorDetails {
  /** The payload a client reads beside the message (e.g. `{status: 'failed', violations}`). */
  response?: unknown;
  /** For `busy`: when to try again. */
  retryAfterSeconds?: number;
}

export class AgentError extends Error {
  readonly response: unknown;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly kind: AgentErrorKind,
    message: string,
    details: AgentErrorDetails = {},
  ) {
    super(message);
    this.name = 'AgentError';
    this.response = details.response ?? {};
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/**
 * The value, or undefined when reading it throws (a file edited by hand, a full disk): for reads whose
 * failure status and streams show otherwise, and must not turn into an error of their own.
 */
export function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
