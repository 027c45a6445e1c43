/** The double-byte encodings' long property runs (npm run test:property; text-encoding.test.ts has the examples). */
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { RECORD_CHUNK_BYTES } from '../../receivers/file-source/file-reader.js';
import { feed, parserWith, whole } from '../../../testing/spreadsheet-feed.js';

describe('file encodings (properties)', () => {
  it('reads random double-byte files exactly as the same text in UTF-8 (property)', () => {
    // Cells of characters whose second bytes are "|" or "\\", separators, quotes and newlines.
    const cell = fc.string({ unit: fc.constantFrom('ポ', '表', 'ｶ', 'a', '|', '"', '\n', '1', ' ') });
    const quote = (text: string) => (/[|"\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }), fc.constantFrom('shift_jis', 'cp932'), (rows, codec) => {
        const text = ['h1|h2', ...rows.map((r) => r.map(quote).join('|'))].join('\n') + '\n';
        const expected = whole(parserWith('utf-8', { separator: '|' }), Buffer.from(text)).rows;
        expect(whole(parserWith(codec, { separator: '|' }), iconv.encode(text, codec)).rows.map((r) => r.fieldvalues)).toEqual(expected.map((r) => r.fieldvalues));
      }),
      { numRuns: 300 },
    );
  });

  const straddling: [string, string, string][] = [
    ['utf_8', 'utf8', 'ü温😀'],
    ['shift_jis', 'shift_jis', '表示ポ'],
    ['gb18030', 'gb18030', '温度\u{20000}'], // a four-byte GB18030 sequence
    ['utf_16_le', 'utf16le', 'ü温😀'], // a surrogate pair
    ['cp1252', 'windows-1252', '€äß'],
  ];
  it.each(straddling)('%s: characters cut by the 128 KiB chunk boundary are read whole', (codec, iconvName, text) => {
    const header = iconv.encode('n,text\n', iconvName);
    const line = (n: number) => iconv.encode(`${n},${text}${'x'.repeat(n % 7)}\n`, iconvName);
    const parts = [header];
    let size = header.length;
    for (let n = 0; size < 3 * RECORD_CHUNK_BYTES; n += 1) {
      parts.push(line(n));
      size += parts[parts.length - 1]!.length;
    }
    const file = Buffer.concat(parts);
    const reference = whole(parserWith(codec), file);
    const rows = reference.rows.length;
    expect(reference.rows.every((r, n) => r.fieldvalues.n === n && r.fieldvalues.text === `${text}${'x'.repeat(n % 7)}`)).toBe(true);
    // Chunks of RECORD_CHUNK_BYTES (the general path's, which every encoding but UTF-8 takes) from
    // every resume offset, and chunks shifted by 1..5 bytes so that every
    // byte of a multi-byte character lands on a boundary somewhere.
    for (const shift of [0, 1, 2, 3, 4, 5]) {
      const chunked = feed(parserWith(codec), file, (offset) => offset + RECORD_CHUNK_BYTES - shift);
      expect(chunked.rows.length, `shift ${shift}`).toBe(rows);
      expect(chunked.rows).toEqual(reference.rows);
      expect(chunked.offset).toBe(file.length);
    }
  });

  it('resumes at any byte offset of a double-byte file without re-reading or skipping a row (property)', () => {
    const file = iconv.encode('名前|値\n表示|1\n"ポ|""x"""|2\n温度|3\n\nｶﾅ|4', 'shift_jis');
    const parser = parserWith('shift_jis', { separator: '|' });
    const reference = whole(parser, file);
    expect(reference.rows.map((r) => r.fieldvalues)).toEqual([
      { 名前: '表示', 値: 1 },
      { 名前: 'ポ|"x"', 値: 2 },
      { 名前: '温度', 値: 3 },
      { 名前: 'ｶﾅ', 値: 4 },
    ]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: file.length }), { minLength: 1, maxLength: 8 }), (steps) => {
        let k = 0;
        const split = feed(parser, file, (offset) => offset + steps[k++ % steps.length]!);
        expect(split.rows).toEqual(reference.rows);
        expect(split.state).toEqual(reference.state);
      }),
      { numRuns: 300 },
    );
  });
});
