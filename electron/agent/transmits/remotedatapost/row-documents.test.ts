import { BSON } from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromMicros } from '../../../../shared/records/record.js';
import { MAX_PLAIN_MICROS } from '../../parsers/spreadsheet/plain-rows.js';
import { recordIdOf } from '../../receivers/file-source/record-ids.js';
import { cellValue } from '../../parsers/spreadsheet/cell-values.js';
import { RowDocumentWriter } from './row-documents.js';

describe('RowDocumentWriter', () => {
  it('writes the record id of any line below 16^12 as recordIdOf does, the high digits included', () => {
    const prefix = '0123456789abcdef0123';
    const lines = [0, 1, 15, 16, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, 2 ** 32 + 5, 0xabcdef123456, 2 ** 48 - 1];
    const writer = new RowDocumentWriter('Press_1', 'cycle', ['part'], prefix);
    const ends = lines.map((line, i) => {
      writer.begin(writer.fixedBytes, 1_767_225_600_000 + i, 1_767_225_700_000, line);
      writer.value(0, i);
      return writer.end();
    });
    const documents = ends.map((end, i) => BSON.deserialize(writer.bytes.subarray(i === 0 ? 0 : ends[i - 1], end)));
    expect(documents.map((d) => d.record_id)).toEqual(lines.map((line) => recordIdOf(prefix, line)));
    expect(documents[6]).toEqual({
      asset: 'Press_1',
      stream_type: 'cycle',
      timestamp: new Date(1_767_225_600_006),
      capturetime: new Date(1_767_225_700_000),
      record_id: recordIdOf(prefix, 2 ** 24 + 1),
      fieldvalues: { part: 6 },
    });
  });

  it('writes a time column from its instant byte for byte as the text isoFromMicros makes (whole seconds, fractions, minute and day boundaries)', () => {
    const instant = fc.oneof(
      fc.integer({ min: 0, max: MAX_PLAIN_MICROS }),
      // Near minute boundaries, one after the other (the writer keeps the last minute's text).
      fc.tuple(fc.integer({ min: 0, max: Math.floor(MAX_PLAIN_MICROS / 60_000_000) - 1 }), fc.integer({ min: -2_000_000, max: 2_000_000 })).map(([minute, offset]) => Math.max(0, minute * 60_000_000 + offset)),
      fc.integer({ min: 0, max: 10 ** 9 }).map((seconds) => seconds * 1_000_000),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 30 }), (instants) => {
        const fast = new RowDocumentWriter('Press_1', 'cycle', ['time', 'n'], 'p');
        const text = new RowDocumentWriter('Press_1', 'cycle', ['time', 'n'], 'p');
        instants.forEach((micros, line) => {
          for (const [writer, time] of [[fast, () => fast.isoValue(0, micros)], [text, () => text.value(0, isoFromMicros(micros))]] as const) {
            writer.begin(writer.fixedBytes + 64, 1_767_225_600_000, 1_767_225_700_000, line);
            time();
            writer.value(1, line);
            writer.end();
          }
        });
        expect(fast.bytes.subarray(0, fast.length).equals(text.bytes.subarray(0, text.length))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes a cell from its bytes as it writes cellValueAt of its decoded text, or leaves it to that', () => {
    // Cells of numbers, number-like texts, booleans, ASCII and other UTF-8 texts, and bytes that are no UTF-8.
    const text = fc.oneof(
      fc.constantFrom('', '0', '-0', '+0.0', '007', '-00.5', '0.5', '.5', '-.5', '12.', '+', '-', '.', '1e5', '1E-3', '2147483647', '2147483648', '-2147483648', '-2147483649', '123456789012345', '1234567890123456', '0.1', '3.14', 'true', 'True', 'TRUE', 'tRue', 'false', 'F', 'ok', 'P12', '12ab', '1.2.3', ' 12', '12 ', 'Ü-Teil', 'a\u00fcb', '\u0000', 'a\u0000b', '~', '\u007f'),
      fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.string({ maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    const cell = fc.oneof(
      { weight: 6, arbitrary: text.map((t) => Buffer.from(t, 'utf8')) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b)) },
    );
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 12 }), (cells) => {
        const fromBytes = new RowDocumentWriter('Press_1', 'cycle', ['v'], 'p');
        const fromText = new RowDocumentWriter('Press_1', 'cycle', ['v'], 'p');
        const line = Buffer.concat(cells.flatMap((c) => [Buffer.from([0x2c]), c]));
        let at = 0;
        cells.forEach((bytes, i) => {
          const start = at + 1;
          const end = start + bytes.length;
          at = end;
          const decoded = bytes.toString('utf8');
          for (const writer of [fromBytes, fromText]) writer.begin(writer.fixedBytes + 3 * bytes.length, 0, 0, i);
          if (!fromBytes.cell(0, line, start, end)) fromBytes.value(0, cellValue(decoded));
          fromText.value(0, cellValue(decoded));
          fromBytes.end();
          fromText.end();
        });
        expect(fromBytes.bytes.subarray(0, fromBytes.length).toString('hex')).toBe(fromText.bytes.subarray(0, fromText.length).toString('hex'));
      }),
      { numRuns: 1000 },
    );
    // The common cells are written from their bytes (not all left to the text).
    const writer = new RowDocumentWriter('Press_1', 'cycle', ['v'], 'p');
    const written = ['189.60', '-6.125', '1423', 'P12', 'ok', '', 'true', 'Ü', '1e5'].map((t) => {
      writer.begin(writer.fixedBytes + 64, 0, 0, 1);
      const bytes = Buffer.from(t);
      return writer.cell(0, bytes, 0, bytes.length);
    });
    expect(written).toEqual([true, true, true, true, true, true, false, false, false]);
  });
});
