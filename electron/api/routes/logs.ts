import { ApiError } from '../../../shared/api/errors.js';
import { LOG_NAMES, type LogName } from '../../../shared/api/resources.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { AgentRuntime } from '../../agent/index.js';
import type { Handlers } from '../router.js';

async function readLog(runtime: AgentRuntime, name: string, query: { lines: number; since: string | undefined }) {
  // Only the two names of the allowlist: a name never becomes a path, so no trick reaches another file.
  if (!(LOG_NAMES as readonly string[]).includes(name))
    throw new ApiError(404, `There is no log "${name}". Logs: ${LOG_NAMES.join(', ')}.`);
  // Read while it is sent: 100,000 lines never sit in memory (docs/security.md).
  return { response: [], stream: await runtime.openLog(name as LogName, query.lines, query.since) };
}

export const logRoutes = {
  coreLog: ({ runtime, query }) => readLog(runtime, 'agent_core.log', query),
  namedLog: ({ runtime, params, query }) => readLog(runtime, params.log_filename, query),
} satisfies Partial<Handlers<RouteId>>;
