import { ApiError } from '../../shared/api/errors.js';
import type { AgentError, AgentErrorKind } from '../agent/index.js';

/**
 * The HTTP status for each kind of agent failure. `failed` is 500: the spec asks it for a failed
 * restream (agent-management-api.md, endpoint 15), and a failed write is the server's failure too.
 */
const STATUS: Record<AgentErrorKind, number> = {
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  busy: 429,
  failed: 500,
  unavailable: 503,
  disk_full: 507,
};

export function statusOfAgentError(kind: AgentErrorKind): number {
  return STATUS[kind];
}

/** The agent's error as the API's: status, message, payload and (for `busy`) Retry-After. */
export function apiErrorOf(error: AgentError): ApiError {
  const headers: Record<string, string> =
    error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
  return new ApiError(STATUS[error.kind], error.message, error.response, headers);
}
