/**
 * The console's languages: one catalog file each under messages/, one line here (docs/i18n.md).
 * English is the first: the catalog every other one is checked against, and the fallback.
 */
import { AGENT_MESSAGES_DE } from './agent-messages/de.js';
import { AGENT_MESSAGES_EN } from './agent-messages/en.js';
import { FIELD_DESCRIPTIONS_DE } from './field-descriptions/de.js';
import { de } from './messages/de.js';
import { en, type Catalog } from './messages/en.js';

export interface Language {
  /** BCP 47 language subtag: what `navigator.language` starts with and `<html lang>` says. */
  code: string;
  /** The language's name in itself, for the header's choice. */
  name: string;
  messages: Catalog;
  /** The agent's messages by code (agent-text.ts); a code missing here is shown in the API's English. */
  agentMessages: Readonly<Record<string, string>>;
  /**
   * The editors' field descriptions (hover, completion), keyed by their English text
   * (field-descriptions/en.ts); a text missing here is shown in English. English itself needs none.
   */
  fieldDescriptions: Readonly<Record<string, string>>;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', messages: en, agentMessages: AGENT_MESSAGES_EN, fieldDescriptions: {} },
  { code: 'de', name: 'Deutsch', messages: de, agentMessages: AGENT_MESSAGES_DE, fieldDescriptions: FIELD_DESCRIPTIONS_DE },
];
