import { ApiError } from '../../../shared/api/errors.js';
import { LOG_NAMES, type LogName } from '../../../shared/api/resources.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { AgentRuntime } from '../../agent/index.js';
import type { Handlers } from '../handler-types.js';

type LogQuery = Parameters<AgentRuntime['openLog']>[1];

async function readLog(runtime: AgentRuntime, name: string, query: LogQuery) {
  // Only the two names of the allowlist: a name never becomes a path, so no trick reaches another file.
  if (!(LOG_NAMES as readonly string[]).includes(name))
    throw new ApiError(404, `There is no log "${name}". Logs: ${LOG_NAMES.join(', ')}.`);
  // Read while it is sent: 100,000 lines never sit in memory (docs/security.md); filters are applied
  // by the agent over the rotated files, so an old warning is found without sending what is between.
  const stream = await runtime.openLog(name as LogName, query);
  return { response: [], stream, meta: { newest_line_at: stream.newestLineAt, has_older: stream.hasOlder } };
}

/** The audit trail (admin only, by its route): who changed what through the API. */
async function readAudit(runtime: AgentRuntime, query: LogQuery) {
  const stream = await runtime.openLog('audit', query);
  return { response: [], stream, meta: { newest_line_at: stream.newestLineAt, has_older: stream.hasOlder } };
}

export const logRoutes = {
  coreLog: ({ runtime, query }) => readLog(runtime, 'agent_core.log', query),
  auditLog: ({ runtime, query }) => readAudit(runtime, query),
  namedLog: ({ runtime, params, query }) => readLog(runtime, params.log_filename, query),
} satisfies Partial<Handlers<RouteId>>;
