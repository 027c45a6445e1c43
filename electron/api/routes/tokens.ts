import { ApiError } from '../../../shared/api/errors.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { HandlerContext, Handlers } from '../handler-types.js';

function tokensOf(context: Pick<HandlerContext, 'tokens'>) {
  if (!context.tokens) throw new ApiError(404, 'This host has no named tokens.');
  return context.tokens;
}

export const tokenRoutes = {
  getSession: ({ caller }) => ({
    response: { name: caller.name, role: caller.role, connection: caller.connection, encrypted: caller.encrypted, insecure: caller.insecure },
  }),

  listTokens: (context) => ({ response: tokensOf(context).list() }),

  createToken: (context) => ({ response: tokensOf(context).create(context.body.name, context.body.role) }),

  revokeToken: (context) => {
    const revoked = tokensOf(context).revoke(context.params.name);
    return revoked
      ? { response: `The token "${context.params.name}" is revoked.` }
      : { success: false, status: 404, response: `There is no token named "${context.params.name}".` };
  },
} satisfies Partial<Handlers<RouteId>>;
