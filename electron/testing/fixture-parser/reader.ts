/**
 * The agent's reader of the fixture parser type (shared/testing/fixture-parser): "name=value" pairs
 * separated by commas, a line a record; numbers as numbers. A line with a pair lacking the separator
 * is skipped with a problem naming it. Reads at most 1 MiB (a fixture, bounded all the same).
 */
import type { FieldValue } from '../../../shared/records/record.js';
import type { ByteSource, DocumentReader, DocumentRecord } from '../../agent/parsers/document/document-reader.js';

const MAX_BYTES = 1024 * 1024;

export function openFixtureReader(config: { options: { separator: string } }, source: ByteSource, name: string): DocumentReader {
  const lines = source.read(0, Math.min(source.size, MAX_BYTES)).toString('utf8').split(/\r?\n/);
  const problems: string[] = [];
  let at = 0;
  const recordOf = (line: string, number: number): DocumentRecord | undefined => {
    const fieldvalues: Record<string, FieldValue> = {};
    for (const pair of line.split(',')) {
      const cut = pair.indexOf(config.options.separator);
      if (cut <= 0) {
        problems.push(`${name} line ${number}: "${pair}" has no "${config.options.separator}"`);
        return undefined;
      }
      const value = pair.slice(cut + config.options.separator.length).trim();
      fieldvalues[pair.slice(0, cut).trim()] = value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    }
    return { fieldvalues, place: `line ${number}` };
  };
  return {
    next(max) {
      const out: DocumentRecord[] = [];
      for (; at < lines.length && out.length < max; at += 1) {
        if (lines[at]!.trim() === '') continue;
        const record = recordOf(lines[at]!, at + 1);
        if (record) out.push(record);
      }
      return out;
    },
    get done() {
      return at >= lines.length;
    },
    takeProblems: () => problems.splice(0),
    close: () => source.close(),
  };
}
