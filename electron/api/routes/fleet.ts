import { ApiError } from '../../../shared/api/errors.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { HandlerContext, Handlers } from '../handler-types.js';

function fleetOf(context: Pick<HandlerContext, 'fleet'>) {
  if (!context.fleet) throw new ApiError(404, 'This host manages no fleet.');
  return context.fleet;
}

export const fleetRoutes = {
  getFleet: (context) => ({ response: { agents: fleetOf(context).list() } }),

  addFleetAgent: async (context) => ({ response: await fleetOf(context).add(context.body) }),

  removeFleetAgent: (context) =>
    fleetOf(context).remove(context.params.name)
      ? { response: `The agent "${context.params.name}" is no longer in the fleet; its token is forgotten.` }
      : { success: false, status: 404, response: `There is no agent named "${context.params.name}" in the fleet.` },

  pinFleetAgent: async (context) => ({ response: await fleetOf(context).pin(context.params.name, context.body.fingerprint) }),
} satisfies Partial<Handlers<RouteId>>;
