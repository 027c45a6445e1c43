/**
 * Roles of API tokens (docs/security.md). Each role may do everything the roles before it may:
 * a viewer reads (every GET) and validates, an operator also starts, stops, restarts, restreams and
 * previews the saved configuration, an admin does everything (saves, tokens, previews of unsaved
 * configurations).
 */
import { z } from 'zod';

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export const RoleSchema = z.enum(ROLES, { error: 'role must be viewer, operator or admin' });
export type Role = z.infer<typeof RoleSchema>;

/** Whether a token of role `held` may use a route that needs `needed`. */
export function roleAllows(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

/** The message of a refused request (403): what it needs and what the token has. */
export function roleRefusal(needed: Role, held: Role, tokenName: string, what?: string): string {
  const action = what ? `${what} needs` : 'This request needs';
  return `${action} the ${needed} role; the token "${tokenName}" has the ${held} role. Ask an admin for a token with the ${needed} role.`;
}
