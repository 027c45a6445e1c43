/**
 * What remotedatapost's secrets authenticate to (secret-targets.ts): a transmit's own API_key, and
 * the sight_machine_cloud key every transmit without one of its own falls back to.
 */
import { type Json, type SecretFields, type SecretTarget, normalBaseUrl, text } from '../../secret-fields.js';

export const remoteDataPostSecrets: readonly SecretFields[] = [
  {
    secret: 'API_key',
    target: 'the cloud account',
    fields: [
      { name: 'base_url', read: (h) => normalBaseUrl(h.base_url) },
      { name: 'API_key_ID', read: (h) => text(h.API_key_ID) },
    ],
  },
];

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

export const cloudBlockSecrets: readonly SecretTarget[] = [
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
