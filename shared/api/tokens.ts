/**
 * Named API tokens with roles (GET/POST /v1/tokens, DELETE /v1/tokens/:name) and the caller's own
 * session (GET /v1/session). A token is answered once, when it is created; afterwards only its
 * salted hash is kept.
 */
import { z } from 'zod';
import { RoleSchema } from './roles.js';

/** The token of TRIBUTARY_API_TOKEN or <data-dir>/api-token: always admin, never listed as revocable. */
export const BOOTSTRAP_TOKEN_NAME = 'bootstrap';
/** The desktop app's own window (IPC): admin, no token. */
export const DESKTOP_SESSION_NAME = 'desktop';
const RESERVED = new Set([BOOTSTRAP_TOKEN_NAME, DESKTOP_SESSION_NAME]);

export const TokenNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'name must not be empty' })
  .max(64, { error: 'name must be at most 64 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'name may hold letters, digits, ".", "_" and "-", starting with a letter or digit' })
  .refine((name) => !RESERVED.has(name.toLowerCase()), { error: `the names ${[...RESERVED].join(' and ')} are reserved` });

export const CreateTokenBodySchema = z
  .strictObject({ name: TokenNameSchema, role: RoleSchema })
  .describe('{"name": "<token name>", "role": "viewer" | "operator" | "admin"}');

export const TokenInfoSchema = z.object({
  name: z.string(),
  role: RoleSchema,
  created: z.string().nullable().describe('UTC, ISO 8601; null for the bootstrap token.'),
  last_used: z.string().nullable().describe('UTC, ISO 8601, minute precision; null when never used.'),
  bootstrap: z.boolean().describe('The token of TRIBUTARY_API_TOKEN or <data-dir>/api-token (admin; not revocable here).'),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

export const CreatedTokenSchema = z.object({
  name: z.string(),
  role: RoleSchema,
  created: z.string(),
  token: z.string().describe('The token itself: shown this once, never again.'),
});
export type CreatedToken = z.infer<typeof CreatedTokenSchema>;

export const SessionSchema = z.object({
  name: z.string().describe('The token name ("desktop" for the desktop app\'s own window).'),
  role: RoleSchema,
  connection: z.enum(['https', 'http', 'local']).describe('How this request came: HTTPS, plain HTTP, or the desktop window (IPC).'),
  encrypted: z.boolean().describe('Whether what is sent crosses the network encrypted (the desktop window: nothing crosses it).'),
  insecure: z.boolean().describe('Plain HTTP on an address other machines reach (--allow-insecure-http): the console shows "not encrypted" in red.'),
});
export type Session = z.infer<typeof SessionSchema>;
