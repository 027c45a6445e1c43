import { ApiError } from '../../../shared/api/errors.js';
import type { RouteId } from '../../../shared/api/routes.js';
import { RestreamError } from '../../agent/index.js';
import type { Handlers } from '../handler-types.js';

export const statusRoutes = {
  getStatus: ({ runtime }) => ({ response: runtime.status() }),
  listStreams: ({ runtime }) => ({ response: runtime.streams() }),
  getHistory: ({ runtime, query }) => ({ response: runtime.flow.history(query.minutes) }),
  restream: async ({ runtime, body }) => {
    if (Object.keys(body).length === 0) throw new ApiError(400, 'Send {"<data_receiver_name>": [{"asset": "…", "stream_type": "…"}], …} naming at least one stream.');
    try {
      return { response: await runtime.restream(body) };
    } catch (cause) {
      if (cause instanceof RestreamError) return { success: false, status: 500, response: cause.message };
      throw cause;
    }
  },
} satisfies Partial<Handlers<RouteId>>;
