import { readStrictJson } from '../../monaco/json-syntax.js';
import { text as catalogText } from '../../i18n/language.js';

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

/** The editor text read as JSON, with its syntax problems where the mistakes are. */
export function readDocument(text: string): { document: unknown; syntax: SyntaxProblem[] } {
  const { document, errors } = readStrictJson(text);
  const syntax = errors.map((e) => ({ offset: e.offset, length: e.length, message: catalogText('jsonSyntax.problem', { words: e.words }) }));
  if (text.trim() === '') syntax.push({ offset: 0, length: 1, message: catalogText('jsonSyntax.empty') });
  return { document, syntax };
}

export function formatDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
