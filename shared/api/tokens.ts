/**
 * Named API tokens with roles (GET/POST /v1/tokens, DELETE /v1/tokens/:name) and the caller's own
 * session (GET /v1/session). A token is answered once, when it is created; afterwards only its
 * salted hash is kept.
 */
import { type AgentMessage, say } from '../config/message.js';
import { z } from 'zod';
import { RoleSchema } from './roles.js';

/** The token of TRIBUTARY_API_TOKEN or <data-dir>/api-token: always admin, never listed as revocable. */
export const BOOTSTRAP_TOKEN_NAME = 'bootstrap';
/** The desktop app's own window (IPC): admin, no token. */
export const DESKTOP_SESSION_NAME = 'desktop';
const RESERVED = new Set([BOOTSTRAP_TOKEN_NAME, DESKTOP_SESSION_NAME]);

/** Characters a token name may have, as the console shows it beside the field (issue 56). */
export const TOKEN_NAME_MAX = 64;
export const TOKEN_NAME_RULE = `Up to ${TOKEN_NAME_MAX} characters, any letters (also ä, é, ñ), digits, spaces and punctuation; no control characters or line breaks. "bootstrap", "desktop", "." and ".." are taken.`;
/** Control, format, private-use, unassigned characters and line or paragraph separators: nothing a person writes or reads. */
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/** Why a (trimmed) token name cannot be used, in a person's words (with its code); undefined when it can. */
export function tokenNameProblem(name: string): AgentMessage | undefined {
  if (name.length === 0) return say('token.name_empty', 'Give the token a name.');
  // Characters as people count them (code points): "Kollege Müller" is 14, an emoji is 1.
  const length = [...name].length;
  if (length > TOKEN_NAME_MAX) return say('token.name_too_long', 'The name is {length} characters long; at most {max} are possible.', { length, max: TOKEN_NAME_MAX });
  const bad = [...name].find((c) => UNPRINTABLE.test(c));
  if (bad !== undefined)
    return say('token.name_unprintable', 'The name holds a character that cannot be shown ({character}); use letters, digits, spaces and punctuation.', {
      character: `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
    });
  // A path segment of only dots is resolved away by browsers and proxies: DELETE /v1/tokens/.. could not name it.
  if (/^\.+$/.test(name) && name.length <= 2) return say('token.name_dots', 'The names "." and ".." cannot be used: they cannot travel in an address.');
  if (RESERVED.has(name.toLowerCase())) return say('token.name_reserved', 'The name "{name}" is reserved for the agent\'s own tokens; choose another one.', { name });
  return undefined;
}

export const TokenNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = tokenNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.text });
  });

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
