/**
 * The console's own session (token name, role, encryption) and the token list of the Tokens page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../shared/api/roles.js';
import { roleAllows } from '../../../shared/api/roles.js';
import { ROUTES, type RouteId } from '../../../shared/api/routes.js';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

export function useSession() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.session(), queryFn: () => api.session(), staleTime: 60_000 });
}

/** The role a route needs, from the route table (the agent checks the same entry). */
export function roleOf(id: RouteId): Role {
  return ROUTES.find((route) => route.id === id)!.role;
}

/**
 * Whether this console's token may use a route (or a role): `disabled` and the tooltip that says
 * which role may. While the session is unknown, nothing is disabled (the agent refuses anyway).
 */
export function usePermission(needed: RouteId | Role): { allowed: boolean; disabled: boolean; title: string | undefined } {
  const { data: session } = useSession();
  const role = needed === 'viewer' || needed === 'operator' || needed === 'admin' ? needed : roleOf(needed);
  if (!session || roleAllows(session.role, role)) return { allowed: true, disabled: false, title: undefined };
  const who = role === 'admin' ? 'an admin' : `an ${role} or admin`;
  return { allowed: false, disabled: true, title: `Only ${who} may do this; your token "${session.name}" is ${session.role}.` };
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
