/**
 * Rules of transmits and of the top-level `sight_machine_cloud` block: where each remotedatapost
 * transmit's base_url, API_key and API_key_ID come from (its own, else sight_machine_cloud),
 * what is missing, addresses that are not web addresses, and the request size cap.
 */
import type { z } from 'zod';
import { MAX_REQUEST_SIZE_BYTES, type RemoteDataPostTransmitSchema, type SightMachineCloudSchema } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';

type Cloud = z.infer<typeof SightMachineCloudSchema>;
type RemoteDataPost = z.infer<typeof RemoteDataPostTransmitSchema>;

/** A value and where it was written. */
export interface Sourced {
  value: string;
  path: JsonPath;
}

/** The cloud block's base_url and key pair (either spelling of each key). */
export function cloudCredentials(cloud: Cloud | undefined): { base_url?: Sourced; API_key?: Sourced; API_key_ID?: Sourced } {
  if (!cloud) return {};
  const pick = (...keys: (keyof Cloud)[]): Sourced | undefined => {
    const key = keys.find((k) => cloud[k] !== undefined);
    return key === undefined ? undefined : { value: cloud[key]!, path: ['sight_machine_cloud', key] };
  };
  return { base_url: pick('base_url'), API_key: pick('api_key', 'API_key'), API_key_ID: pick('api_key_id', 'API_key_ID') };
}

const CREDENTIALS = [
  ['base_url', 'base_url', 'the server\'s address, https://<tenant>.<domain>'],
  ['API_key', 'api_key', 'the edge API key'],
  ['API_key_ID', 'api_key_id', 'the edge API key id'],
] as const;

/** The credentials a remotedatapost transmit uses, each with where it comes from. */
export function transmitCredentials(transmit: RemoteDataPost, index: number, cloud: Cloud | undefined): Record<'base_url' | 'API_key' | 'API_key_ID', Sourced | undefined> {
  const shared = cloudCredentials(cloud);
  const own = (key: 'base_url' | 'API_key' | 'API_key_ID'): Sourced | undefined => (transmit[key] === undefined ? undefined : { value: transmit[key]!, path: ['data_transmit', index, key] });
  return { base_url: own('base_url') ?? shared.base_url, API_key: own('API_key') ?? shared.API_key, API_key_ID: own('API_key_ID') ?? shared.API_key_ID };
}

export function cloudViolations(cloud: Cloud | undefined, transmits: readonly unknown[], partial: boolean): Violation[] {
  if (!cloud) return [];
  const out: Violation[] = [];
  for (const [lower, upper] of [['api_key', 'API_key'], ['api_key_id', 'API_key_ID']] as const)
    if (cloud[lower] !== undefined && cloud[upper] !== undefined && cloud[lower] !== cloud[upper])
      out.push(error(['sight_machine_cloud', upper], say('remotedatapost.same_setting_written_two', '{upper} and {lower} are the same setting written two ways, with different values; keep one.', { upper, lower })));
  const users = transmits.filter((item) => {
    const t = item as Partial<RemoteDataPost> | undefined;
    return t?.transmit_type === 'remotedatapost' && (t.base_url === undefined || t.API_key === undefined || t.API_key_ID === undefined);
  });
  if (users.length === 0 && !partial)
    out.push(warning(['sight_machine_cloud'], say('remotedatapost.remotedatapost_transmit_uses_sight_machine_cloud', 'No remotedatapost transmit uses sight_machine_cloud: each sets its own base_url, API_key and API_key_ID (or there is none).')));
  return out;
}

export function remoteDataPostViolations(transmit: RemoteDataPost, index: number, cloud: Cloud | undefined, isPrompt: (value: string) => boolean): Violation[] {
  const out: Violation[] = [];
  const base: JsonPath = ['data_transmit', index];
  const credentials = transmitCredentials(transmit, index, cloud);
  for (const [key, cloudKey, what] of CREDENTIALS)
    if (credentials[key] === undefined) out.push(error(base, say('remotedatapost.missing_set_here_sight_machine_cloud', '{key} is missing: set {what} here, or {cloudKey} in sight_machine_cloud for every transmit.', { key, what, cloudKey })));
  const shared = cloudCredentials(cloud).base_url;
  if (transmit.base_url !== undefined && shared !== undefined && shared.value.replace(/\/+$/, '') !== transmit.base_url.replace(/\/+$/, ''))
    out.push(warning([...base, 'base_url'], say('remotedatapost.transmit_uploads_sight_machine_cloud_own', 'This transmit uploads to {base_url}, not to sight_machine_cloud\'s {value}: its own base_url wins. Make sure that is the tenant you mean.', { base_url: transmit.base_url, value: shared.value })));
  if (transmit.max_request_size_bytes !== undefined && transmit.max_request_size_bytes > MAX_REQUEST_SIZE_BYTES)
    out.push(warning([...base, 'max_request_size_bytes'], say('remotedatapost.max_request_size_bytes_above_cap_bytes', 'max_request_size_bytes {max_request_size_bytes} is above the cap of {MAX_REQUEST_SIZE_BYTES} bytes (4 MiB): requests stay at most 4 MiB, as in the product family.', { max_request_size_bytes: transmit.max_request_size_bytes, MAX_REQUEST_SIZE_BYTES })));
  const url = credentials.base_url;
  if (!url || isPrompt(url.value)) return out;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.value);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    out.push(error(url.path, say('remotedatapost.web_address_form_https', '"{value}" is not a web address. Use the form https://<tenant>.<domain>.', { value: url.value })));
  } else if (parsed.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) {
    out.push(warning(url.path, say('remotedatapost.address_uses_http_https', 'The address uses http, not https: the API key id travels unprotected. Use https unless this is a test server.')));
  }
  return out;
}
