import { ApiError } from '../../../shared/api/errors.js';
import type { Handler } from '../router.js';

export const opcuaRoutes = {
  browseOpcua: async ({ runtime, query }) => {
    const receiver = query.receiver?.trim();
    if (!receiver) throw new ApiError(400, 'Name the OPC UA receiver: /v1/opcua/browse?receiver=<data_receiver_name>&node=<node id>.');
    return { response: await runtime.browseOpcua(receiver, query.node?.trim() || undefined) };
  },
} satisfies Record<string, Handler>;
