import { ApiError } from '../../../shared/api/errors.js';
import { LOG_NAMES, LogQuerySchema, type LogName } from '../../../shared/api/resources.js';
import type { Handler, HandlerContext } from '../router.js';

function readLog(context: HandlerContext, name: string) {
  // Only the two names of the allowlist: a name never becomes a path, so no trick reaches another file.
  if (!(LOG_NAMES as readonly string[]).includes(name))
    throw new ApiError(404, `There is no log "${name}". Logs: ${LOG_NAMES.join(', ')}.`);
  const query = LogQuerySchema.safeParse(context.query);
  if (!query.success) throw new ApiError(400, 'lines must be a whole number from 1 to 100000.');
  return { response: context.runtime.readLog(name as LogName, query.data.lines, query.data.since) };
}

export const logRoutes = {
  coreLog: (context) => readLog(context, 'agent_core.log'),
  namedLog: (context) => readLog(context, context.params.log_filename ?? ''),
} satisfies Record<string, Handler>;
