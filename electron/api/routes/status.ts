import { ApiError } from '../../../shared/api/errors.js';
import { RestreamRequestSchema } from '../../../shared/api/resources.js';
import { RestreamError } from '../../agent/index.js';
import { CONFIG_LIMITS } from '../../../shared/config/limits.js';
import type { Handler } from '../router.js';

export const statusRoutes = {
  getStatus: ({ runtime }) => ({ response: runtime.status() }),
  listStreams: ({ runtime }) => ({ response: runtime.streams() }),
  restream: async ({ runtime, body }) => {
    // A request cannot name more streams than a configuration holds: refused before each is parsed.
    const named = body && typeof body === 'object' ? Object.values(body).reduce((n: number, list) => n + (Array.isArray(list) ? list.length : 1), 0) : 0;
    if (named > CONFIG_LIMITS.streams) throw new ApiError(400, `The request names ${named.toLocaleString('en-US')} streams; a configuration holds at most ${CONFIG_LIMITS.streams.toLocaleString('en-US')}, so nothing was restreamed.`);
    const request = RestreamRequestSchema.safeParse(body);
    if (!request.success || Object.keys(request.data).length === 0)
      throw new ApiError(400, 'Send {"<data_receiver_name>": [{"asset": "…", "stream_type": "…"}], …} naming at least one stream.');
    try {
      return { response: await runtime.restream(request.data) };
    } catch (cause) {
      if (cause instanceof RestreamError) return { success: false, status: 500, response: cause.message };
      throw cause;
    }
  },
} satisfies Record<string, Handler>;
