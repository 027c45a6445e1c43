/**
 * The agent's own messages (violations, health reasons, markers, quality findings) in the console's
 * language (issue 57 point 4). The API sends English text for tools, and, from agents that know it, a
 * stable `code` with `params`; the console writes the code's template from agent-messages/<lang>.ts.
 * Anything it cannot write whole (no code, an unknown code, a placeholder without its param) is
 * shown in the agent's English, never half translated.
 */
import { formatNumber } from '../format/locale.js';
import { currentLanguage } from './language.js';

const PLACEHOLDER = /\{(\w+)\}/g;

/** How deep messages inside messages' params are written; deeper ones are shown in their text. */
const MAX_NESTING = 3;

/** A param as the locale writes it: numbers with its separators, a message in the language, the rest as text. */
function shown(value: unknown, messages: Readonly<Record<string, string>>, depth: number): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(value) : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (value !== null && typeof value === 'object') {
    const text = field(value, 'text');
    if (typeof text !== 'string') return undefined;
    if (depth >= MAX_NESTING) return text;
    const code = field(value, 'code');
    const params = field(value, 'params');
    return agentTextFrom(messages, typeof code === 'string' ? code : undefined, isObject(params) ? params : undefined, text, depth + 1);
  }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `template` with its {name} placeholders filled from `params`; undefined when one is missing. */
export function fillTemplate(template: string, params: Readonly<Record<string, unknown>> | undefined, messages: Readonly<Record<string, string>> = {}, depth = 0): string | undefined {
  let complete = true;
  const text = template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = params && Object.hasOwn(params, name) ? shown(params[name], messages, depth) : undefined;
    if (value === undefined) complete = false;
    return value ?? whole;
  });
  return complete ? text : undefined;
}

/** The message of `code` from `messages`, else `english`. */
export function agentTextFrom(messages: Readonly<Record<string, string>>, code: string | undefined, params: Readonly<Record<string, unknown>> | undefined, english: string, depth = 0): string {
  const template = code !== undefined && Object.hasOwn(messages, code) ? messages[code] : undefined;
  return (template !== undefined && fillTemplate(template, params, messages, depth)) || english;
}

/** The agent's message in the console's language: `code` and `params` from the API, `english` its text. */
export function agentText(code: string | undefined, params: Record<string, unknown> | undefined, english: string): string {
  return agentTextFrom(currentLanguage().agentMessages, code, params, english);
}

function field(value: object, name: string): unknown {
  return Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * agentText of an object the API sent: its `code` and `params` fields (or `reason_code` and
 * `reason_params` with prefix 'reason_'), which older agents leave out.
 */
export function agentTextOf(value: object, english: string, prefix = ''): string {
  const code = field(value, `${prefix}code`);
  const params = field(value, `${prefix}params`);
  return agentText(typeof code === 'string' ? code : undefined, isObject(params) ? params : undefined, english);
}
