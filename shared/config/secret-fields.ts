/**
 * The vocabulary of secret targets (secret-targets.ts), kept apart so that receiver and transmit
 * folders can say what their secrets authenticate to without an import circle through the registries.
 */

export type Json = Record<string, unknown>;

export interface TargetField {
  /** Field of the object holding the secret. */
  name: string;
  /** Its value for the comparison: defaults filled in, spelling variants made equal. */
  read?: (holder: Json, owner: Json | undefined, root: Json | undefined) => unknown;
}

/** A secret of a component and what it authenticates to. */
export interface SecretFields {
  /** The key of the secret in the object holding it. */
  secret: string;
  /** How the violation names the target: "the server", "the cloud account". */
  target: string;
  /** The fields that name what the secret authenticates to. */
  fields: readonly TargetField[];
}

/** A secret at a place of the document: `where` is the path of the objects holding it ("*" = any list index). */
export interface SecretTarget extends SecretFields {
  where: readonly string[];
  /** Only for holders of this kind (e.g. transmits of one transmit_type); default every holder at `where`. */
  when?: (holder: Json) => boolean;
}

export const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
export const hostName = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** https://Tenant.Example.com/ and https://tenant.example.com are one account; a path is kept as written. */
export function normalBaseUrl(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .trim()
    .replace(/\/+$/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, (origin) => origin.toLowerCase());
}

/** host, port and username: what names a server for most connections. */
export const serverFields = (port?: number): TargetField[] => [
  { name: 'host', read: (h) => hostName(h.host) },
  port === undefined ? { name: 'port' } : { name: 'port', read: (h) => h.port ?? port },
  { name: 'username', read: (h) => text(h.username) },
];

/**
 * How a connection is secured. A saved secret is only sent the way it was saved: turning TLS off,
 * accepting any certificate, trusting another CA or server certificate would let it leave in clear
 * or to an impostor without being typed again (issue 50). Defaults as the schemas give them.
 */
export const tlsFields = (): TargetField[] => [
  { name: 'tls', read: (h) => h.tls ?? false },
  { name: 'reject_unauthorized', read: (h) => h.reject_unauthorized ?? true },
  { name: 'ca_file', read: (h) => text(h.ca_file) },
];

/** A database connection's TLS (sql receiver and transmit). */
export const sslFields = (): TargetField[] => [
  { name: 'ssl', read: (h) => h.ssl ?? false },
  { name: 'trust_server_certificate', read: (h) => h.trust_server_certificate ?? false },
];

/**
 * An OPC UA connection's message security. The server certificates it trusts are not among them:
 * trusting the thumbprint an untrusted-server marker shows is the everyday way to connect (the
 * engineer sees which certificate), and asking for the password again there would break it.
 */
export const opcuaSecurityFields = (): TargetField[] => [
  { name: 'security_mode', read: (h) => h.security_mode ?? 'None' },
  { name: 'security_policy', read: (h) => h.security_policy ?? null },
];
