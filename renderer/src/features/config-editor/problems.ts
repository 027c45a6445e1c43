import { getLocation } from 'jsonc-parser';
import type { Violation } from '../../../../shared/config/violations.js';
import { jsonTree, rangeOfJsonPath } from '../../monaco/json-path-range.js';
import type { SyntaxProblem } from './document-text.js';
import type { ListedProblem } from './violation-list.js';
import { agentTextOf } from '../../i18n/agent-text.js';

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * The problem list in the order of the text (top to bottom, as an engineer works through it), each
 * with its line. Syntax errors hide the violations: those are from the last readable text.
 */
export function listProblems(text: string, syntax: readonly SyntaxProblem[], violations: readonly Violation[]): ListedProblem[] {
  if (syntax.length > 0)
    return syntax.map((s, i) => ({ key: `syntax-${i}`, level: 'error' as const, description: s.message, offset: s.offset, line: lineOf(text, s.offset) })).sort((a, b) => a.offset - b.offset);
  const tree = jsonTree(text);
  return violations
    .map((v, i) => {
      const offset = rangeOfJsonPath(text, v.json_path, tree)?.offset ?? 0;
      return { key: `v-${i}`, level: v.level, description: agentTextOf(v, v.description), path: v.json_path, offset, line: lineOf(text, offset) };
    })
    .sort((a, b) => a.offset - b.offset || (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
}

/** The data_receiver_name of the receiver the cursor is in, when it is in one. */
export function receiverAt(text: string, offset: number, document: unknown): string | undefined {
  const path = getLocation(text, offset).path;
  if (path[0] !== 'data_receiver' || typeof path[1] !== 'number') return undefined;
  const receivers = (document as { data_receiver?: unknown } | null)?.data_receiver;
  const name = Array.isArray(receivers) ? (receivers[path[1]] as { data_receiver_name?: unknown } | undefined)?.data_receiver_name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** Names of the receivers of a document, in order. */
export function receiverNames(document: unknown): string[] {
  const receivers = (document as { data_receiver?: unknown } | null)?.data_receiver;
  return Array.isArray(receivers) ? receivers.map((r) => (r as { data_receiver_name?: unknown })?.data_receiver_name).filter((n): n is string => typeof n === 'string' && n !== '') : [];
}
