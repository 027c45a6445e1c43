import { API_VERSION, API_VERSION_HEADER, type Envelope } from '../../../shared/api/envelope.js';
import { ApiError } from '../../../shared/api/errors.js';
import type { ApiResponse } from '../handler-types.js';
import type { FleetService } from './fleet-service.js';

/** Request headers that mean something to the agent forwarded to (a save's If-Match). */
const FORWARDED_REQUEST = ['if-match', 'if-none-match'];
/** Answer headers passed back to the console. */
const FORWARDED_ANSWER = ['etag', 'allow', 'retry-after', 'x-tributary-api-version'];

function refusal(status: number, text: string, response: unknown = {}): ApiResponse {
  return { status, headers: { [API_VERSION_HEADER]: API_VERSION }, body: { success: false, response, error: { code: status, text } } };
}

/**
 * Sends one request on to an agent of the fleet and answers what it answered: status, envelope and
 * the few headers the console uses. Its failures (unreachable, certificate changed, token refused)
 * are 502 with words naming the agent; a 401 of the agent never reaches the console as a 401 (that
 * would log the console out of this agent).
 */
export async function forwardToAgent(
  fleet: FleetService | undefined,
  name: string,
  request: { method: string; path: string; query: Record<string, string>; headers: Record<string, string | undefined>; body?: unknown },
  unexpected: (cause: unknown) => void,
): Promise<ApiResponse> {
  if (!fleet) return refusal(404, 'This host manages no fleet.');
  const query = new URLSearchParams(request.query).toString();
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST) {
    const value = request.headers[name] ?? request.headers[name.replace(/(^|-)\w/g, (c) => c.toUpperCase())];
    if (value !== undefined) headers[name] = value;
  }
  try {
    const reply = await fleet.forward(name, { method: request.method, path: query ? `${request.path}?${query}` : request.path, headers, body: request.body });
    const answer: Record<string, string> = {};
    for (const header of FORWARDED_ANSWER) {
      const value = reply.headers[header];
      if (typeof value === 'string') answer[header === 'etag' ? 'ETag' : header] = value;
    }
    return { status: reply.status, headers: answer, body: reply.json as Envelope };
  } catch (cause) {
    if (cause instanceof ApiError) return refusal(cause.status, cause.message, cause.response);
    unexpected(cause);
    return refusal(500, `Unexpected error: ${(cause as Error)?.message ?? String(cause)}`);
  }
}
