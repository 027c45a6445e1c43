import type { RouteId } from '../../../shared/api/routes.js';
import type { Handlers } from '../handler-types.js';

export const opcuaRoutes = {
  browseOpcua: async ({ runtime, query }) => ({ response: await runtime.browseOpcua(query.receiver, query.node || undefined) }),
} satisfies Partial<Handlers<RouteId>>;
