import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import { record } from '../../../testing/records.js';
import { RECORDS_JSON } from '../../components/records-json-codec.js';
import { CSV_OUTBOX, parseSegments, toSegments } from './csv-outbox.js';
import { csvText } from './csv-transmit.js';

const fieldValue = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
const columnName = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a,b', 'x"y', 'line\nbreak'));
const fieldvalues = fc.dictionary(columnName, fieldValue, { maxKeys: 6 });
const records = fc.array(
  fc.record({ fieldvalues, asset: fc.constantFrom('Press_1', 'Press_2'), id: fc.string({ maxLength: 4 }), second: fc.integer({ min: 0, max: 59 }) }),
  { maxLength: 12 },
);

const toRecords = (items: { fieldvalues: Record<string, FieldValue>; asset: string; id: string; second: number }[]): AgentRecord[] =>
  items.map((item) => record(item.fieldvalues, { asset: item.asset, record_id: item.id, timestamp: `2026-01-05T06:00:${String(item.second).padStart(2, '0')}.000000Z` }));

/** A CSV line as the transmit wrote it before batches were stored by column: from the record. */
function lineFromRecord(fileColumns: readonly string[], r: AgentRecord): string {
  const cell = (v: FieldValue | undefined) => (v === null || v === undefined ? '' : /[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [r.timestamp, r.capturetime, r.record_id, ...fileColumns.map((c) => (Object.hasOwn(r.fieldvalues, c) ? r.fieldvalues[c] : undefined))].map(cell).join(',');
}

describe('the csv outbox by column', () => {
  it('gives back exactly the records it stored: types, nulls, column order and odd names', () => {
    fc.assert(
      fc.property(records, (items) => {
        const stored = toRecords(items);
        const batches = CSV_OUTBOX.encode(stored, {});
        expect(batches).toHaveLength(stored.length === 0 ? 0 : 1);
        if (stored.length === 0) return;
        const back = CSV_OUTBOX.decode(batches[0]!.payload);
        // Exactly what the records-as-objects format gives back (JSON: -0 is 0 there too).
        expect(back).toEqual(RECORDS_JSON.decode(RECORDS_JSON.encode(stored, {})[0]!.payload));
        back.forEach((r, i) => expect(Object.keys(r.fieldvalues)).toEqual(Object.keys(stored[i]!.fieldvalues)));
      }),
      { numRuns: 300 },
    );
  });

  it('writes each column name once per run of records with the same columns', () => {
    const stored = [record({ a: 1, b: 'x' }), record({ a: 2, b: null }, { record_id: 'r2' }), record({ b: 3, a: 4 }, { record_id: 'r3' })];
    const segments = parseSegments(CSV_OUTBOX.encode(stored, {})[0]!.payload);
    expect(segments.map(([, , columns, rows]) => [columns, rows.length])).toEqual([
      [['a', 'b'], 2],
      [['b', 'a'], 1],
    ]);
  });

  it("keeps the batch's time span for the KPI history, whatever the order of its rows", () => {
    const stored = [record({ a: 1 }, { timestamp: '2026-01-05T06:00:05.000000Z' }), record({ a: 2 }, { timestamp: '2026-01-05T06:00:01.000000Z' })];
    const [batch] = CSV_OUTBOX.encode(stored, {});
    expect(batch!.span).toEqual({ min: Date.UTC(2026, 0, 5, 6, 0, 1) * 1000, max: Date.UTC(2026, 0, 5, 6, 0, 5) * 1000 });
    expect(CSV_OUTBOX.keptByHistory).toBe(true);
  });

  it('lays rows out in any file column order as the record-by-record writing did, empty where a record has no value', () => {
    fc.assert(
      fc.property(records, fc.array(columnName, { maxLength: 4 }), (items, extra) => {
        const all = toRecords(items);
        let next = 0;
        for (const [, , columns, rows] of toSegments(all)) {
          // Segments are runs of consecutive records.
          const stored = all.slice(next, (next += rows.length));
          // The file may have the columns in another order and more of them.
          for (const fileColumns of [columns, [...columns].reverse(), [...new Set([...extra, ...columns])]]) {
            const text = csvText(fileColumns, columns, rows);
            expect(text).toEqual(stored.map((r) => `${lineFromRecord(fileColumns, r)}\n`).join(''));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
