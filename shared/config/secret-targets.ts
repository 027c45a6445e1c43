/**
 * What each secret authenticates to. A masked secret ("********") sent back with a configuration is
 * reused only while the target it was saved for is unchanged: otherwise whoever holds the API token
 * could point a saved password at a server of their own and read it there (decisions.md, "API
 * transport and security").
 *
 * To add a secret: one row. `where` is the path of the objects that hold it ("*" = any list
 * index), `secret` the key, `fields` what names its target. A secret in a place no row describes
 * is reused only while every other plain field of the object holding it is unchanged.
 */

type Json = Record<string, unknown>;

export interface TargetField {
  /** Field of the object holding the secret. */
  name: string;
  /** Its value for the comparison: defaults filled in, spelling variants made equal. */
  read?: (holder: Json, owner: Json | undefined, root: Json | undefined) => unknown;
}

export interface SecretTarget {
  /** Path pattern of the objects holding the secret, e.g. ['data_receiver', '*', 'connections', '*']. */
  where: readonly string[];
  /** The key of the secret in those objects. */
  secret: string;
  /** The fields that name what the secret authenticates to. */
  fields: readonly TargetField[];
  /** How the violation names the target: "the server", "the cloud account". */
  target: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
const hostName = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** https://Tenant.Example.com/ and https://tenant.example.com are one account; a path is kept as written. */
export function normalBaseUrl(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .trim()
    .replace(/\/+$/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, (origin) => origin.toLowerCase());
}

/** The share of `share/sub/folder`: moving within a share keeps its password, another share does not. */
function shareOf(holder: Json): unknown {
  const folder = holder.shared_folder;
  if (typeof folder !== 'string') return folder;
  return folder.trim().replace(/^[\\/]+/, '').split(/[\\/]/)[0]!.toLowerCase();
}

/** A connection's port with the protocol's default filled in (SMB: 445). */
function portOf(holder: Json, owner: Json | undefined): unknown {
  if (holder.port !== undefined) return holder.port;
  return owner?.protocol === 'smb' ? 445 : undefined;
}

/**
 * Where the sight_machine_cloud key is sent: the base_url and key id of each remotedatapost transmit
 * that takes the key from the block (no API_key of its own), with the block's values filled in.
 */
function inheritingTargets(cloud: Json, root: Json | undefined): string[] {
  const transmits = Array.isArray(root?.data_transmit) ? (root.data_transmit as unknown[]) : [];
  const targets = new Set<string>();
  for (const item of transmits) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const transmit = item as Json;
    if ((transmit.transmit_type ?? 'remotedatapost') !== 'remotedatapost' || transmit.API_key !== undefined) continue;
    const url = normalBaseUrl(transmit.base_url ?? cloud.base_url);
    const id = text(transmit.API_key_ID ?? cloud.api_key_id ?? cloud.API_key_ID);
    targets.add(`${String(url)} (key id ${String(id)})`);
  }
  return [...targets].sort();
}

export const SECRET_TARGETS: readonly SecretTarget[] = [
  {
    // SQL, SMB, OPC UA and MQTT connections of receivers.
    where: ['data_receiver', '*', 'connections', '*'],
    secret: 'password',
    target: 'the server',
    fields: [
      { name: 'host', read: (h) => hostName(h.host) },
      { name: 'port', read: portOf },
      { name: 'username', read: (h) => text(h.username) },
      { name: 'domain', read: (h) => hostName(h.domain) },
      { name: 'database_type' },
      { name: 'database_name', read: (h) => text(h.database_name) },
      { name: 'instance_name', read: (h) => hostName(h.instance_name) },
      { name: 'shared_folder', read: shareOf },
    ],
  },
  {
    where: ['data_transmit', '*'],
    secret: 'API_key',
    target: 'the cloud account',
    fields: [{ name: 'base_url', read: (h) => normalBaseUrl(h.base_url) }, { name: 'API_key_ID', read: (h) => text(h.API_key_ID) }],
  },
  {
    // mqtt transmits: the broker the password opens (receiver connections are the first row).
    where: ['data_transmit', '*'],
    secret: 'password',
    target: 'the broker',
    fields: [{ name: 'host', read: (h) => hostName(h.host) }, { name: 'port' }, { name: 'username', read: (h) => text(h.username) }],
  },
  // The product family's top-level block (either spelling of the key and of its id). Its key also
  // authenticates every remotedatapost transmit without an API_key of its own, to that transmit's
  // base_url when it sets one: those count as targets too.
  ...(['api_key', 'API_key'] as const).map((secret) => ({
    where: ['sight_machine_cloud'],
    secret,
    target: 'the cloud account',
    fields: [
      { name: 'base_url', read: (h: Json) => normalBaseUrl(h.base_url) },
      { name: 'api_key_id', read: (h: Json) => text(h.api_key_id ?? h.API_key_ID) },
      { name: 'data_transmit', read: (h: Json, _owner: Json | undefined, root: Json | undefined) => inheritingTargets(h, root) },
    ],
  })),
];

/** The row for a secret `key` held by the object at `holderPath`, if any. */
export function secretTargetAt(holderPath: readonly (string | number)[], key: string): SecretTarget | undefined {
  return SECRET_TARGETS.find(
    (row) => row.secret === key && row.where.length === holderPath.length && row.where.every((part, i) => (part === '*' ? typeof holderPath[i] === 'number' : part === holderPath[i])),
  );
}
