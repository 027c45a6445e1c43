/**
 * The document parsers read what pandas reads: Excel files written by openpyxl and read by
 * read_excel (openpyxl), JSON by json_normalize, XML by read_xml (lxml), covering the options.
 * Needs Debian's python3-pandas, python3-openpyxl and python3-lxml (scripts/ci/test-tools.sh).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ParserSchema } from '../../../../shared/config/schema.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { isoToEpochMicros } from '../../time/iso-time.js';
import { openDocumentReader, openFileSource } from './index.js';

interface Case {
  name: string;
  file: string;
  parser: Record<string, unknown>;
  records: Record<string, FieldValue | { $ms: number }>[];
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-pandas-'));
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testing', 'pandas-cases.py');
const cases = JSON.parse(execFileSync('/usr/bin/python3', [script, folder], { maxBuffer: 64 * 1024 * 1024 }).toString()) as Case[];
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function readAll(parserInput: Record<string, unknown>, file: string) {
  const parser = ParserSchema.parse({ parser_name: 'p', ...parserInput });
  if (!isDocumentParser(parser)) throw new Error('not a document parser');
  const reader = openDocumentReader(parser, openFileSource(file), path.basename(file));
  const records = [];
  try {
    while (!reader.done) records.push(...reader.next(7));
    return { records, problems: reader.takeProblems() };
  } finally {
    reader.close();
  }
}

/** pandas' value and ours agree: dates by instant, NaN-coerced booleans (1.0) by number. */
function same(expected: FieldValue | { $ms: number }, actual: FieldValue | undefined): boolean {
  const value = actual ?? null;
  if (expected !== null && typeof expected === 'object') return typeof value === 'string' && isoToEpochMicros(value) === expected.$ms * 1000;
  if (typeof expected === 'number') return (typeof value === 'number' || typeof value === 'boolean') && Math.abs(Number(value) - expected) < 1e-9;
  return value === expected;
}

describe('document parsers against pandas', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { records, problems } = readAll(c.parser, c.file);
    expect(problems).toEqual([]);
    // pandas keeps a blank row between data rows as a row of NaN; Tributary sends no record for it.
    const expected = c.records.filter((record) => Object.values(record).some((value) => value !== null));
    expect(records.length).toBe(expected.length);
    expected.forEach((want, i) => {
      const got = records[i]!.fieldvalues;
      for (const key of Object.keys(got)) expect(key in want, `${c.name} record ${i}: field ${key} not in pandas' columns`).toBe(true);
      for (const [key, value] of Object.entries(want))
        expect(same(value, got[key]), `${c.name} record ${i} field ${key}: pandas ${JSON.stringify(value)}, Tributary ${JSON.stringify(got[key])}`).toBe(true);
    });
  });

  it('names the place of a record with its sheet and row, or its line', () => {
    const excel = readAll(cases.find((c) => c.name.startsWith('excel by sheet name'))!.parser, path.join(folder, 'lims.xlsx'));
    expect(excel.records[0]!.place).toBe('lims.xlsx sheet "Data" row 4');
    const lines = readAll({ parser_type: 'json', options: { lines: true } }, path.join(folder, 'events.ndjson'));
    expect(lines.records[2]!.place).toBe('events.ndjson line 3');
  });
});
