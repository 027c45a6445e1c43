import { z } from 'zod';
import type { ApiResponse, Router } from './router.js';
import { failure } from './router.js';
import { checkJsonValue, jsonBodyLimitsFor } from './json-body.js';
import { DESKTOP_CALLER } from './auth/caller.js';

const IpcRequestSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  path: z.string().startsWith('/v1/').max(2048),
  body: z.unknown().optional(),
  /** Only the headers the API reads from clients (If-Match for revisioned saves). */
  headers: z.object({ 'if-match': z.string().max(200).optional() }).partial().optional(),
});

/**
 * The Electron IPC adapter: the same router as HTTP, for requests coming from the console window.
 * Parses the request at the boundary and refuses anything outside /v1. The desktop window is the
 * local user's own (who owns the data directory and its token anyway): it acts as admin.
 */
export async function routeIpcRequest(router: Router, raw: unknown): Promise<ApiResponse> {
  const parsed = IpcRequestSchema.safeParse(raw);
  if (!parsed.success) return failure(400, 'Refused: an IPC request needs a method and a path under /v1/.');
  const url = new URL(parsed.data.path, 'ipc://console');
  if (/(^|\/)\.\.?(\/|$|\?)/.test(parsed.data.path) || !url.pathname.startsWith('/v1/')) return failure(400, 'Refused: the path must stay under /v1/.');
  const shape = parsed.data.body === undefined ? undefined : checkJsonValue(parsed.data.body, jsonBodyLimitsFor(parsed.data.method, url.pathname));
  if (shape && !shape.ok) return failure(shape.status, shape.message);
  return router.dispatch({
    caller: DESKTOP_CALLER,
    method: parsed.data.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { ...parsed.data.headers },
    body: parsed.data.body,
  });
}
