/**
 * "Copy this source to…" (issue 34 point 4, docs/fleet.md): receivers and transmits picked from one
 * agent's configuration merged into another's. Both come from GET /v1/config, so their secrets are
 * masked: a masked secret can only be carried where the target already holds the same block with a
 * secret for the same server (unmaskSecrets decides, the way the target's own save will); every
 * other one must be typed again before the save.
 */
import type { MessageParams } from './message.js';
import { SECRET_MASK } from './schema.js';
import { unmaskSecrets } from './secrets.js';
import type { JsonPath } from './violations.js';

type Block = Record<string, unknown>;
type Config = Record<string, unknown>;

export interface PickedBlocks {
  receivers: readonly string[];
  transmits: readonly string[];
}

export interface SecretToEnter {
  /** Where the secret goes in the merged configuration. */
  json_path: JsonPath;
  /** `password`, `API_key` … */
  key: string;
  /** Why the target's saved value cannot be used, in words. */
  reason: string;
  /** The reason's code and parameters (issue 57): the console writes it in its language. */
  code?: string;
  params?: MessageParams;
}

export interface CopyPlan {
  /** The target's configuration with the picked blocks in (secrets still masked). */
  config: Config;
  /** Blocks of the same name the target had, replaced: "receiver line-a", "transmit cloud". */
  replaced: string[];
  added: string[];
  /** Secrets to re-enter before the save. */
  secrets: SecretToEnter[];
}

const LISTS = [
  { list: 'data_receiver', id: 'data_receiver_name', word: 'receiver', pick: 'receivers' },
  { list: 'data_transmit', id: 'transmit_name', word: 'transmit', pick: 'transmits' },
] as const;

const blocks = (config: Config, list: string): Block[] =>
  Array.isArray(config[list]) ? (config[list] as Block[]) : [];

/** The target with the picked blocks of the source merged in: same name → replaced in place, else added. */
export function copyBlocks(source: Config, target: Config, picked: PickedBlocks): CopyPlan {
  const config: Config = structuredClone(target);
  const replaced: string[] = [];
  const added: string[] = [];
  for (const { list, id, word, pick } of LISTS) {
    const names = new Set(picked[pick]);
    if (names.size === 0) continue;
    const into = blocks(config, list).slice();
    for (const block of blocks(source, list)) {
      const name = block[id];
      if (typeof name !== 'string' || !names.has(name)) continue;
      const at = into.findIndex((candidate) => candidate[id] === name);
      if (at >= 0) {
        into[at] = structuredClone(block);
        replaced.push(`${word} ${name}`);
      } else {
        into.push(structuredClone(block));
        added.push(`${word} ${name}`);
      }
    }
    config[list] = into;
  }
  // The target's own masks resolve to themselves; only a copied secret can fail here.
  const { violations } = unmaskSecrets(structuredClone(config), target);
  const secrets = violations.map((v) => ({
    json_path: v.json_path,
    key: String(v.json_path[v.json_path.length - 1]),
    reason: v.description,
    code: v.code,
    params: v.params,
  }));
  return { config, replaced, added, secrets };
}

export const secretKey = (path: JsonPath): string => path.join('.');

/** The plan's configuration with the typed secrets in; the ones still empty are listed in `missing`. */
export function withSecrets(
  plan: { config: Config; secrets: readonly SecretToEnter[] },
  typed: Readonly<Record<string, string>>,
): { config: Config; missing: SecretToEnter[] } {
  const config = structuredClone(plan.config);
  const missing: SecretToEnter[] = [];
  for (const secret of plan.secrets) {
    const value = typed[secretKey(secret.json_path)] ?? '';
    if (value === '' || value === SECRET_MASK) {
      missing.push(secret);
      continue;
    }
    let holder: unknown = config;
    for (const part of secret.json_path.slice(0, -1)) {
      const isObject = holder !== null && typeof holder === 'object';
      holder = isObject ? (holder as Record<string | number, unknown>)[part] : undefined;
    }
    // The configuration was edited after the plan (the dialog lets the engineer fix it) and the
    // secret's place is gone: it cannot go in, so it stays to be dealt with rather than vanish.
    if (holder === null || typeof holder !== 'object') {
      missing.push(secret);
      continue;
    }
    (holder as Record<string, unknown>)[secret.key] = value;
  }
  return { config, missing };
}
