/**
 * What tests of one file read by two parse threads need: a big CSV with what makes cutting it hard
 * (quoted newlines, CRLF, bad and blank lines), the records a one-thread read gives for it, and the
 * records and progress the agent has stored (state/agent.db, read-only).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { SpreadsheetParserSchema } from '../../shared/config/schema.js';
import type { AgentRecord } from '../../shared/records/record.js';
import { builtInComponents } from '../agent/catalog/built-in.js';
import { createSpreadsheetParser } from '../agent/parsers/spreadsheet/index.js';
import { FINGERPRINT_BYTES, fingerprintOf } from '../agent/receivers/file-source/file-reader.js';
import { recordIdOf, recordIdPrefix } from '../agent/receivers/file-source/record-ids.js';

export const SPLIT_HEADER = 'time,part,note\r\n';

/** Rows `from` ≤ part < `to`: every 7th has a quoted note with a newline, a comma and quotes; CRLF and LF; a bad line every 101 rows, a blank line every 211. */
export function splitRows(from: number, to: number): string {
  let text = '';
  for (let part = from; part < to; part += 1) {
    const time = `2026-01-05 ${String(6 + Math.floor(part / 3600) % 18).padStart(2, '0')}:${String(Math.floor(part / 60) % 60).padStart(2, '0')}:${String(part % 60).padStart(2, '0')}`;
    const note = part % 7 === 0 ? `"line one\nline ""two"", ${part}\r\nthree"` : `n${part}`;
    text += `${time},${part},${note}${part % 2 === 0 ? '\r\n' : '\n'}`;
    if (part % 101 === 0) text += `broken,${part}\n`;
    if (part % 211 === 0) text += '\n';
  }
  return text;
}

/** The record ids and `part` values a one-thread read of the whole file gives (the parser over all its bytes). */
export function oneThreadRead(file: string, stream: { asset: string; stream_type: string }, parserConfig: unknown): Map<string, number> {
  const bytes = fs.readFileSync(file);
  const parser = createSpreadsheetParser(SpreadsheetParserSchema.parse(parserConfig));
  const result = parser.parseChunk(bytes, parser.initialState(), true);
  const prefix = recordIdPrefix(stream, file, fingerprintOf(bytes.subarray(0, Math.min(bytes.length, FINGERPRINT_BYTES))));
  return new Map(result.rows.map((row) => [recordIdOf(prefix, row.line), row.fieldvalues.part as number]));
}

function openState(dataDirectory: string): Database.Database {
  return new Database(path.join(dataDirectory, 'state', 'agent.db'), { readonly: true, fileMustExist: true });
}

/** Every record queued in the outboxes, decoded. */
export function queuedRecords(dataDirectory: string): AgentRecord[] {
  const db = openState(dataDirectory);
  try {
    const registry = builtInComponents();
    const rows = db.prepare('SELECT format, payload FROM outbox ORDER BY id').all() as { format: string; payload: Buffer }[];
    return rows.flatMap((row) => registry.decode(row.format, row.payload));
  } finally {
    db.close();
  }
}

/** The file's own progress and how many part rows it has. */
export function splitProgress(dataDirectory: string, file: string): { offset?: number; parts: number } {
  const db = openState(dataDirectory);
  try {
    const progress = db.prepare('SELECT offset FROM file_progress WHERE path = ?').get(file) as { offset: number } | undefined;
    const hasParts = db.prepare("SELECT name FROM sqlite_master WHERE name = 'file_parts'").get() !== undefined;
    const parts = hasParts ? (db.prepare('SELECT COUNT(*) AS n FROM file_parts WHERE path = ?').get(file) as { n: number }).n : 0;
    return { offset: progress?.offset, parts };
  } finally {
    db.close();
  }
}

/** Lines of the agent's logs that contain `text`. */
export function logLines(dataDirectory: string, text: string): string[] {
  const folder = path.join(dataDirectory, 'logs');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8').split('\n'))
    .filter((line) => line.includes(text));
}
