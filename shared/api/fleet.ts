/**
 * The fleet (docs/fleet.md): the agents the desk's agent manages, their health as it last polled
 * them, and the request bodies that add and re-pin them. A remote agent's token is sent once, when it
 * is added, and never answered again.
 */
import { z } from 'zod';
import { AgentStatusSchema } from './resources.js';

export const FleetAgentNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'name must not be empty' })
  .max(64, { error: 'name must be at most 64 characters' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'name may hold letters, digits, ".", "_" and "-", starting with a letter or digit' });

/** SHA-256 of a certificate as `openssl x509 -fingerprint -sha256` prints it; colons, spaces and case are forgiven. */
export const FingerprintSchema = z
  .string()
  .trim()
  .transform((text) => text.replace(/^sha-?256[:= ]*/i, '').replace(/[\s:]/g, '').toUpperCase())
  .refine((hex) => /^[0-9A-F]{64}$/.test(hex), { error: 'fingerprint must be the SHA-256 of the certificate: 64 hex digits, e.g. AB:CD:… as openssl prints it' })
  .transform((hex) => hex.match(/../g)!.join(':'));

export const FleetUrlSchema = z
  .string()
  .trim()
  // Scheme, host (a name, an IPv4 or a bracketed IPv6 address) and port, optionally a base path.
  .refine((text) => /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(\/[^?#\s]*)?$/i.test(text), {
    error: 'url must be the agent\'s address, http(s)://host:port, without query, fragment or user name',
  })
  .transform((text) => text.replace(/\/+$/, ''));

export const AddFleetAgentBodySchema = z
  .strictObject({
    name: FleetAgentNameSchema,
    url: FleetUrlSchema,
    token: z.string().trim().min(1, { error: 'token must not be empty: an API token of that agent' }).max(512),
    fingerprint: FingerprintSchema.optional(),
  })
  .describe('{"name": "<agent name>", "url": "https://host:4900", "token": "<that agent\'s API token>", "fingerprint": "AB:CD:… (optional)"}');

export const PinFleetAgentBodySchema = z
  .strictObject({ fingerprint: FingerprintSchema })
  .describe('{"fingerprint": "AB:CD:…"}: the certificate the agent presents now, as shown in GET /v1/fleet presented_fingerprint');

export const FleetHealthSchema = z.enum(['ok', 'degraded', 'unknown']);

export const FleetAgentSchema = z.object({
  name: z.string(),
  url: z.string().describe('Where the agent is reached; "local" for the desktop app\'s own agent.'),
  reachable: z.boolean(),
  state: AgentStatusSchema.nullable().describe('running, stopped or failed as last seen; null when never reached.'),
  health: FleetHealthSchema.describe('degraded: a service has error markers or something cannot be written; unknown: not reached now.'),
  last_seen: z.string().nullable().describe('ISO 8601 UTC time of the last successful poll; null when never reached.'),
  version: z.string().nullable().describe('Tributary version of that agent.'),
  revision: z.number().int().nullable().describe('Revision of its saved configuration; null when nothing was saved.'),
  streams: z.object({
    total: z.number().int(),
    flowing: z.number().int().describe('Streams with a record read in the last 5 minutes.'),
    stale: z.number().int().describe('The other streams: no record for 5 minutes or more (or none since the agent started).'),
  }),
  backlog_records: z.number().int().describe('Records waiting in all its transmits\' outboxes.'),
  error: z.string().nullable().describe('Why the agent is not managed normally now: "certificate changed", "token refused", "unreachable since …".'),
  self: z.boolean().describe('This agent, the one holding the list.'),
  fingerprint: z.string().nullable().describe('SHA-256 of the pinned certificate (https); null for http.'),
  presented_fingerprint: z.string().nullable().describe('The certificate the agent presents now when it differs from the pinned one (re-pin with POST /v1/fleet/agents/{name}/pin).'),
});
export type FleetAgent = z.infer<typeof FleetAgentSchema>;

export const FleetSchema = z.object({ agents: z.array(FleetAgentSchema).describe('This agent first, then each added one in the order added.') });
export type Fleet = z.infer<typeof FleetSchema>;

/** Where the console reaches an added agent's API through the desk's agent. */
export const FLEET_PROXY_PREFIX = '/v1/fleet/agents/';
export const fleetProxyBase = (name: string) => `${FLEET_PROXY_PREFIX}${encodeURIComponent(name)}/api`;
/** `/v1/fleet/agents/<name>/api/<path>` → name and the forwarded path, or undefined. */
export function parseFleetProxyPath(path: string): { name: string; path: string } | undefined {
  const match = /^\/v1\/fleet\/agents\/([^/]+)\/api(\/.*)$/.exec(path);
  if (!match) return undefined;
  try {
    return { name: decodeURIComponent(match[1]!), path: match[2]! };
  } catch {
    return undefined;
  }
}
