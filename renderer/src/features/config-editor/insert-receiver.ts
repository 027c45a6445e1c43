/**
 * Inserts a receiver or transmit template at the end of `data_receiver` / `data_transmit` as minimal
 * text edits (jsonc-parser `modify`), so that the rest of the document keeps its formatting and
 * Undo takes it back out.
 */
import { applyEdits, modify, type Edit } from 'jsonc-parser';
import { RECEIVER_TEMPLATES, TRANSMIT_TEMPLATES, type TemplateProtocol, type TransmitTemplateType } from '../../../../shared/config/templates.js';
import { readDocument } from './document-text.js';
import { text as catalogText } from '../../i18n/language.js';

export type Insertion = { edits: Edit[]; text: string; index: number; name: string } | { problem: string };

export function insertReceiver(text: string, protocol: TemplateProtocol): Insertion {
  return insertInto(text, 'data_receiver', 'data_receiver_name', RECEIVER_TEMPLATES[protocol]);
}

export function insertTransmit(text: string, type: TransmitTemplateType): Insertion {
  return insertInto(text, 'data_transmit', 'transmit_name', TRANSMIT_TEMPLATES[type]);
}

function insertInto(text: string, section: 'data_receiver' | 'data_transmit', nameKey: string, template: object): Insertion {
  const { document, syntax } = readDocument(text);
  if (syntax.length > 0) return { problem: catalogText('insertProblems.syntax') };
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { problem: catalogText('insertProblems.notObject') };
  const existing = (document as Record<string, unknown>)[section];
  if (existing !== undefined && !Array.isArray(existing)) return { problem: catalogText('insertProblems.notList', { section }) };
  const items = Array.isArray(existing) ? existing : [];
  const taken = new Set(items.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>)[nameKey] : undefined)));
  const copy = structuredClone(template) as Record<string, unknown>;
  // Names must be unique: local_files, local_files_2, ...
  const base = String(copy[nameKey]);
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
  const item = { ...copy, [nameKey]: name };
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
  const edits = Array.isArray(existing)
    ? modify(text, [section, items.length], item, { formattingOptions, isArrayInsertion: true })
    : modify(text, [section], [item], { formattingOptions });
  return { edits, text: applyEdits(text, edits), index: items.length, name };
}
