/**
 * The console's own session (token name, role, encryption) and the token list of the Tokens page.
 */
import { text } from '../i18n/language.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../shared/api/roles.js';
import { roleAllows } from '../../../shared/api/roles.js';
import { ROUTES, type RouteId } from '../../../shared/api/routes.js';
import { useApi } from './api-context.js';
import { ApiRequestError } from './errors.js';
import { useStatus } from './queries.js';
import { queryKeys } from './query-keys.js';

export function useSession() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.session(), queryFn: () => api.session(), staleTime: 60_000 });
}

/** The role a route needs, from the route table (the agent checks the same entry). */
export function roleOf(id: RouteId): Role {
  return ROUTES.find((route) => route.id === id)!.role;
}

/** What the shell says of an action's button: `disabled` and the tooltip that says why. */
export interface ActionGate {
  allowed: boolean;
  disabled: boolean;
  title: string | undefined;
}

/**
 * Whether an action can be used now: the token's role must allow it, and the agent must answer (a click
 * while it does not would only fail with a network error). While the session is unknown, the role
 * check passes (the agent refuses anyway).
 */
export function actionGate(session: { name: string; role: Role } | undefined, role: Role, reachable: boolean): ActionGate {
  if (session && !roleAllows(session.role, role)) {
    return { allowed: false, disabled: true, title: text('notes.gateRole', { who: role === 'admin' ? 'admin' : 'other', role, name: session.name, current: session.role }) };
  }
  if (!reachable) return { allowed: true, disabled: true, title: text('notes.gateUnreachable') };
  return { allowed: true, disabled: false, title: undefined };
}

/** Whether this console's token may use a route (or a role) now: see actionGate. */
export function usePermission(needed: RouteId | Role): ActionGate {
  const { data: session } = useSession();
  const status = useStatus();
  const role = needed === 'viewer' || needed === 'operator' || needed === 'admin' ? needed : roleOf(needed);
  // Only "no answer at all" (status 0): a refused token or a server error is said by the request itself.
  const unreachable = status.isError && status.error instanceof ApiRequestError && status.error.status === 0;
  return actionGate(session, role, !unreachable);
}

export function useTokens(enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.tokens(), queryFn: () => api.tokens(), enabled });
}

export function useCreateToken() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, role }: { name: string; role: Role }) => api.createToken(name, role),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens() }),
  });
}

export function useRevokeToken() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.revokeToken(name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens() }),
  });
}
