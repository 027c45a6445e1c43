/**
 * Inserts a receiver template at the end of `data_receiver` as minimal text edits (jsonc-parser
 * `modify`), so that the rest of the document keeps its formatting and Undo takes it back out.
 */
import { applyEdits, modify, type Edit } from 'jsonc-parser';
import { RECEIVER_TEMPLATES, type TemplateProtocol } from '../../../../shared/config/templates.js';
import { readDocument } from './document-text.js';

export type Insertion = { edits: Edit[]; text: string; index: number; name: string } | { problem: string };

export function insertReceiver(text: string, protocol: TemplateProtocol): Insertion {
  const { document, syntax } = readDocument(text);
  if (syntax.length > 0) return { problem: 'Fix the JSON syntax first: a template can only be inserted into a readable document.' };
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return { problem: 'The configuration must be a JSON object to insert a template.' };
  const existing = (document as Record<string, unknown>).data_receiver;
  if (existing !== undefined && !Array.isArray(existing)) return { problem: 'data_receiver must be a list to insert a receiver into it.' };
  const receivers = Array.isArray(existing) ? existing : [];
  const taken = new Set(receivers.map((r) => (r && typeof r === 'object' ? (r as Record<string, unknown>).data_receiver_name : undefined)));
  const template = structuredClone(RECEIVER_TEMPLATES[protocol]) as { data_receiver_name: string };
  // Receiver names must be unique: local_files, local_files_2, ...
  let name = template.data_receiver_name;
  for (let n = 2; taken.has(name); n += 1) name = `${template.data_receiver_name}_${n}`;
  const receiver = { ...template, data_receiver_name: name };
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
  const edits = Array.isArray(existing)
    ? modify(text, ['data_receiver', receivers.length], receiver, { formattingOptions, isArrayInsertion: true })
    : modify(text, ['data_receiver'], [receiver], { formattingOptions });
  return { edits, text: applyEdits(text, edits), index: receivers.length, name };
}
