/**
 * The words and choices of the "copy this source to…" dialog (docs/fleet.md), apart from React:
 * which agents a configuration can be copied to, what may be picked, and the document a target is
 * asked to check and save.
 */
import { text, text as catalogText } from '../../i18n/language.js';
import type { FleetAgent } from '../../../../shared/api/fleet.js';
import { type CopyPlan, type SecretToEnter, withSecrets } from '../../../../shared/config/copy-blocks.js';
import type { JsonPath } from '../../../../shared/config/violations.js';
import type { AgentAt } from '../../api/index.js';
import { readDocument } from './document-text.js';
import { pathText } from './violation-list.js';

export interface CopyTarget {
  /** The fleet row's name: the key, and what the dialog calls it. */
  name: string;
  label: string;
  at: AgentAt;
  /** Why it cannot be copied to now (unreachable, certificate changed); undefined: it can. */
  unavailable: string | undefined;
}

/**
 * Every agent of the fleet but the one being managed (the source): this agent too, when another
 * is managed. An agent that is not reached now, or whose certificate changed, is listed with why.
 */
export function copyTargets(rows: readonly FleetAgent[], managed: string | null): CopyTarget[] {
  return rows
    .filter((row) => (managed === null ? !row.self : row.self || row.name !== managed))
    .map((row) => ({
      name: row.name,
      label: row.self ? `${row.name} (this agent)` : row.name,
      at: row.self ? { local: true as const } : { via: row.name },
      unavailable: row.self || (row.reachable && !row.presented_fingerprint) ? undefined : (row.error ?? 'not reached'),
    }));
}

const namesOf = (document: unknown, list: string, id: string): string[] => {
  const blocks = (document as Record<string, unknown> | null)?.[list];
  if (!Array.isArray(blocks)) return [];
  return blocks
    .map((block) => (block as Record<string, unknown> | null)?.[id])
    .filter((name): name is string => typeof name === 'string');
};

/** The receivers and transmits a configuration has, by name: what can be picked. */
export function pickable(document: unknown): { receivers: string[]; transmits: string[] } {
  return {
    receivers: namesOf(document, 'data_receiver', 'data_receiver_name'),
    transmits: namesOf(document, 'data_transmit', 'transmit_name'),
  };
}

/** "Adds receiver press. Replaces transmit cloud (the target's block of that name)." */
export function describePlan(plan: Pick<CopyPlan, 'added' | 'replaced'>): string {
  const parts = [
    plan.added.length > 0 ? text('notices.adds', { names: plan.added.join(', ') }) : '',
    plan.replaced.length > 0 ? text('notices.replaces', { names: plan.replaced.join(', ') }) : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : text('notices.nothingChanges');
}

/** What a secret input is called: the key, the block it belongs to and where it goes. */
export function secretLabel(secret: SecretToEnter, config: Record<string, unknown>): string {
  const [list, index] = secret.json_path as [string, number, ...JsonPath];
  const block = (config[list] as Record<string, unknown>[] | undefined)?.[index];
  const name = block?.data_receiver_name ?? block?.transmit_name;
  const kind = list === 'data_transmit' ? 'transmit' : 'receiver';
  return `${secret.key} of ${kind} ${typeof name === 'string' ? name : index + 1} (${pathText(secret.json_path)})`;
}

export type Prepared = { document: Record<string, unknown>; missing: SecretToEnter[] } | { problem: string };

/**
 * The document the target checks and saves: the right side of the diff (which the engineer may
 * have fixed) with the typed secrets in. Secrets still empty are listed; the target refuses them too.
 */
export function prepareDocument(
  text: string,
  secrets: readonly SecretToEnter[],
  typed: Readonly<Record<string, string>>,
): Prepared {
  const { document, syntax } = readDocument(text);
  if (syntax.length > 0) return { problem: catalogText('copy.rightNotJson', { problem: syntax[0]!.message }) };
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return { problem: catalogText('copy.rightNotObject') };
  const { config, missing } = withSecrets({ config: document as Record<string, unknown>, secrets }, typed);
  return { document: config, missing };
}

/** Identifies what was checked: a check holds only for this text and these typed secrets. */
export const checkKey = (text: string, typed: Readonly<Record<string, string>>): string =>
  JSON.stringify([text, Object.entries(typed).sort()]);
