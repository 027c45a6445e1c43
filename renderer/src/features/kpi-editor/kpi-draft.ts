/** Pure helpers of the KPI page: draft text, names, and the preview's time window. */
import { text as catalogText } from '../../i18n/language.js';
import { readStrictJson } from '../../monaco/json-syntax.js';

export function formatKpi(definition: unknown): string {
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/** The `name` of a draft document, when it has one. */
export function draftName(document: unknown): string | null {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return null;
  const name = (document as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}

export const PREVIEW_RANGES = [
  { id: '1h', seconds: 3600 },
  { id: '24h', seconds: 86_400 },
  { id: '7d', seconds: 7 * 86_400 },
] as const;

export const BIN_SIZES = [
  { id: '1m', seconds: 60 },
  { id: '5m', seconds: 300 },
  { id: '15m', seconds: 900 },
  { id: '1h', seconds: 3600 },
  { id: '1d', seconds: 86_400 },
] as const;

/**
 * The window ending at the end of the current bin (so that the newest data is in the last bin),
 * starting `rangeSeconds` before, both on bin boundaries (UTC).
 */
export function previewWindow(nowMs: number, rangeSeconds: number, binSeconds: number): { start: string; end: string } {
  const bin = binSeconds * 1000;
  const end = Math.ceil((nowMs + 1) / bin) * bin;
  const start = end - Math.max(bin, Math.ceil((rangeSeconds * 1000) / bin) * bin);
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

/** Machine names from a comma- or space-separated field. */
export function machineList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((part) => part.trim()).filter(Boolean))];
}

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

/** The editor text read as strict JSON (the format allows no comments and no trailing commas). */
export function readKpiText(text: string): { document: unknown; syntax: SyntaxProblem[] } {
  if (text.trim() === '') return { document: undefined, syntax: [{ offset: 0, length: 1, message: catalogText('jsonSyntax.kpiEmpty') }] };
  const { document, errors } = readStrictJson(text);
  const syntax = errors.map((e) => ({ offset: e.offset, length: e.length, message: catalogText('jsonSyntax.kpiProblem', { words: e.words }) }));
  return { document, syntax };
}

/** A json_path as people read it: field_maps[0].alias_map.up_time */
export function pathText(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(whole KPI)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
