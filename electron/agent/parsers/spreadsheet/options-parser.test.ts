import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ParserSchema } from '../../../../shared/config/schema.js';
import { readOptionsOf } from './read-options.js';
import { type ChunkResult, type ParsedRow, type SpreadsheetState, createSpreadsheetParser } from './spreadsheet-parser.js';

const parser = (parse: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  createSpreadsheetParser(ParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', ...extra, options: { ...((extra.options as object) ?? {}), parse } }));

function read(text: string | Buffer, parse: Record<string, unknown>, extra: Record<string, unknown> = {}): ChunkResult {
  const p = parser(parse, extra);
  return p.parseChunk(typeof text === 'string' ? Buffer.from(text) : text, p.initialState(), true);
}
const rows = (result: ChunkResult) => result.rows.map((r) => r.fieldvalues);

// Expected values follow pandas 1.5 read_csv (checked against it), except that Tributary types each
// cell on its own (pandas types a column as a whole) and keeps leading zeros as text.
describe('pandas read_csv options', () => {
  it('sep, decimal and thousands: German exports', () => {
    expect(rows(read('a;b;c\n1,5;1.234,5;x\n-0,5;1.5;2\n', { sep: ';', decimal: ',', thousands: '.' }))).toEqual([
      { a: 1.5, b: 1234.5, c: 'x' },
      { a: -0.5, b: 15, c: 2 }, // "1.5" with thousands "." is 15, as in pandas
    ]);
    // Without thousands a "." is not part of a number: the cell stays text.
    expect(rows(read('a;b\n1,5;1.5\n', { delimiter: ';', decimal: ',' }))).toEqual([{ a: 1.5, b: '1.5' }]);
    expect(rows(read('b\n1 234,5\n', { sep: ';', decimal: ',', thousands: ' ' }))).toEqual([{ b: 1234.5 }]);
    // Leading zeros stay text, also in another notation.
    expect(rows(read('id;v\n007;0,5\n', { sep: ';', decimal: ',' }))).toEqual([{ id: '007', v: 0.5 }]);
  });

  it('skiprows as a count and as line numbers', () => {
    expect(rows(read('exported by HMI\nline 2\na,b\n1,2\n', { skiprows: 2 }))).toEqual([{ a: 1, b: 2 }]);
    expect(rows(read('a,b\n1,2\n3,4\n5,6\n', { skiprows: 1 }))).toEqual([{ 1: 3, 2: 4 }, { 1: 5, 2: 6 }]);
    expect(rows(read('a,b\nunits,bar\n1,2\n3,4\n', { skiprows: [1, 3] }))).toEqual([{ a: 1, b: 2 }]);
  });

  it('skipfooter: the last rows of a complete file, blank lines not counted', () => {
    expect(rows(read('a,b\n1,2\n3,4\ntotal,9\n', { skipfooter: 1 }))).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
    expect(rows(read('a,b\n1,2\n3,4\n\nfoot\n\n', { skipfooter: 2 }))).toEqual([{ a: 1, b: 2 }]);
    // Until the file is complete the last rows wait: they may be the footer.
    const p = parser({ skipfooter: 1 });
    const partial = p.parseChunk(Buffer.from('a,b\n1,2\n3,4\n'), p.initialState(), false);
    expect(rows(partial)).toEqual([{ a: 1, b: 2 }]);
    const rest = p.parseChunk(Buffer.from('a,b\n1,2\n3,4\ntotal,9\n').subarray(partial.consumedBytes), partial.state, true);
    expect(rows(rest)).toEqual([{ a: 3, b: 4 }]);
    expect(partial.consumedBytes + rest.consumedBytes).toBe(Buffer.byteLength('a,b\n1,2\n3,4\ntotal,9\n'));
  });

  it('header none, names, usecols', () => {
    expect(rows(read('1,2\n3,4\n', { header: null }))).toEqual([{ 0: 1, 1: 2 }, { 0: 3, 1: 4 }]);
    expect(rows(read('1,2\n3,4\n', { names: ['x', 'y'] }))).toEqual([{ x: 1, y: 2 }, { x: 3, y: 4 }]);
    expect(rows(read('a,b\n1,2\n', { names: ['x', 'y'], header: 0 }))).toEqual([{ x: 1, y: 2 }]);
    expect(rows(read('a,b,c\n1,2,3\n', { usecols: ['a', 'c'] }))).toEqual([{ a: 1, c: 3 }]);
    expect(rows(read('a,b,c\n1,2,3\n', { usecols: [2, 0] }))).toEqual([{ a: 1, c: 3 }]);
    expect(rows(read('a,b,c\n1,2,3\n', { usecols: [0, 2], names: ['x', 'z'] }))).toEqual([{ x: 'a', z: 'c' }, { x: 1, z: 3 }]);
    expect(read('a,b\n1,2\n', { usecols: ['a', 'q'] }).fatal?.message).toMatch(/usecols names the column "q", which is not in the header/);
    expect(read('a,b\n1,2\n', { names: ['x', 'y', 'z'], header: 0 }).fatal?.message).toMatch(/names has 3 names, but the file has 2 columns/);
  });

  it('na_values and keep_default_na', () => {
    // Without either option, only empty cells are null (Tributary's rule before these options).
    expect(rows(read('a,b\nNA,\n', {}, { file_encoding: 'utf-8', options: { counter: false } }))).toEqual([{ a: 'NA', b: null }]);
    expect(rows(read('a,b\nNA,-999\nn/a,5\nx,\n', { na_values: [-999] }))).toEqual([{ a: null, b: null }, { a: null, b: 5 }, { a: 'x', b: null }]);
    expect(rows(read('a,b\nNA,\nx,5\n', { keep_default_na: false }))).toEqual([{ a: 'NA', b: '' }, { a: 'x', b: 5 }]);
    expect(rows(read('a,b\n---,---\n', { na_values: { b: ['---'] } }))).toEqual([{ a: '---', b: null }]);
    expect(rows(read('a\nnull\n', { keep_default_na: true }))).toEqual([{ a: null }]);
  });

  it('quotechar, comment, true_values, false_values, skip_blank_lines', () => {
    expect(rows(read("a,b\n'x,y',1\n", { quotechar: "'" }))).toEqual([{ a: 'x,y', b: 1 }]);
    expect(rows(read('# exported 2026-01-05\na,b # columns\n1,"2#3" # note "quoted\n', { comment: '#' }))).toEqual([{ a: 1, b: '2#3 ' }]);
    expect(rows(read('a,b\nja,1\nnein,2\nTrue,3\n', { true_values: ['ja'], false_values: ['nein'] }))).toEqual([
      { a: true, b: 1 },
      { a: false, b: 2 },
      { a: true, b: 3 },
    ]);
    expect(rows(read('a,b\n\n1,2\n', { skip_blank_lines: false }))).toEqual([{ a: null, b: null }, { a: 1, b: 2 }]);
    expect(rows(read('a,b\n# x\n1,2\n', { comment: '#', skip_blank_lines: false }))).toEqual([{ a: 1, b: 2 }]);
  });

  it('quotechar and comment in UTF-16 and in Shift_JIS files', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a;b # Kopf\r\n'x;\ny';1 # Rest 'offen\r\n2;3\r\n", 'utf16le')]);
    expect(rows(read(utf16, { sep: ';', quotechar: "'", comment: '#' }))).toEqual([{ a: 'x;\ny', b: 1 }, { a: 2, b: 3 }]);
    const sjis = iconv.encode("名前|値\n'ポ|'|1 # メモ 'x\n表|2\n", 'shift_jis');
    expect(rows(read(sjis, { sep: '|', quotechar: "'", comment: '#' }, { file_encoding: 'shift_jis' }))).toEqual([{ 名前: 'ポ|', 値: 1 }, { 名前: '表', 値: 2 }]);
  });

  it('dtype for every column or per column', () => {
    expect(rows(read('a,b\n007,1\n', { dtype: 'str' }))).toEqual([{ a: '007', b: '1' }]);
    expect(rows(read('a,b,c,d\n007,1.0,True,yes\n', { dtype: { a: 'int64', b: 'float', c: 'bool', d: 'str' } }))).toEqual([{ a: 7, b: 1, c: true, d: 'yes' }]);
  });

  it('dtype converts or makes the line a bad line', () => {
    const result = read('a,b,c\n007,1.5,True\nx,2,1\n3,y,False\n', { dtype: { a: 'int', b: 'float64', c: 'bool' } });
    expect(rows(result)).toEqual([{ a: 7, b: 1.5, c: true }]);
    expect(result.badLines.map((b) => b.message)).toEqual([
      'Line 3: "x" in column a is not a whole number (dtype int).',
      'Line 4: "y" in column b is not a number (dtype float).',
    ]);
    expect(rows(read('a;b\n1.234;1,5\n', { sep: ';', decimal: ',', thousands: '.', dtype: { a: 'Int64', b: 'float' } }))).toEqual([{ a: 1234, b: 1.5 }]);
    expect(read('a\n1\n', { dtype: 'bool', on_bad_lines: 'error' }).fatal?.message).toMatch(/"1" in column a is not true or false \(dtype bool\)/);
  });

  it('time stamps, the counter and line numbers work as on the tuned path', () => {
    const result = read('# header\ntime;temp\n2026-01-05 06:00:00;21,5\n\n2026-01-05 06:00:01;22\n', { sep: ';', decimal: ',', comment: '#', parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] }, { options: { localtz: 'Europe/Berlin', counter: true } });
    expect(rows(result)).toEqual([
      { time: '2026-01-05T05:00:00.000000Z', temp: 21.5, counter: 1 },
      { time: '2026-01-05T05:00:01.000000Z', temp: 22, counter: 2 },
    ]);
    expect(result.rows.map((r) => r.line)).toEqual([3, 5]);
  });
});

describe('which path reads a file', () => {
  it.each([
    [{}, false],
    [{ sep: ';' }, false],
    [{ delimiter: '\t', encoding: 'cp1252', on_bad_lines: 'skip', header: 1 }, false],
    [{ quotechar: '"', decimal: '.' }, false],
    [{ decimal: ',' }, true],
    [{ skiprows: 1 }, true],
    [{ header: null }, true],
    [{ names: ['a'] }, true],
    [{ dtype: 'str' }, true],
    [{ comment: '#' }, true],
  ])('options %j → general path %s', (parse, general) => {
    expect(readOptionsOf(ParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', options: { parse } })).general).toBe(general);
  });

  it('the csv parser type takes its separator at the top level, pandas aliases in options.parse', () => {
    const csv = ParserSchema.parse({ parser_name: 'p', parser_type: 'csv', separator: '|', file_encoding: 'cp1252' });
    expect(readOptionsOf(csv)).toMatchObject({ separator: '|', encoding: 'cp1252', general: false });
    const p = createSpreadsheetParser(csv);
    expect(rows(p.parseChunk(iconv.encode('a|b\nMüller|1\n', 'windows-1252'), p.initialState(), true))).toEqual([{ a: 'Müller', b: 1 }]);
    expect(readOptionsOf(ParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', options: { parse: { encoding: 'shift_jis' } } })).encoding).toBe('shift_jis');
  });
});

describe('general path: resuming anywhere', () => {
  const FILE = iconv.encode(
    'Export Linie 3\r\n# Spalten\r\nZeit;Temp;Status;Menge\r\nEinheit;°C;;Stk\r\n2026-03-29 01:59:00;21,5;"läuft; ok";1.234\r\n\r\n2026-03-29 03:00:00;-0,5;Störung;12 # Alarm\r\n2026-03-29 03:01:00;NA;"zwei\r\nZeilen";0\r\nSumme;;;1.246\r\n',
    'windows-1252',
  );
  const p = parser(
    { sep: ';', decimal: ',', thousands: '.', skiprows: [0, 3], comment: '#', skipfooter: 1, na_values: ['NA'], parse_timestamps: [{ field_name: 'Zeit', format: '%Y-%m-%d %H:%M:%S' }] },
    { file_encoding: 'cp1252', options: { localtz: 'Europe/Berlin', counter: true } },
  );

  function feed(cuts: number[]): { rows: ParsedRow[]; offset: number; state: SpreadsheetState } {
    let offset = 0;
    let state = p.initialState();
    const out: ParsedRow[] = [];
    for (const end of [...new Set(cuts)].sort((a, b) => a - b).concat(FILE.length)) {
      if (end < offset) continue;
      const result = p.parseChunk(FILE.subarray(offset, end), state, end === FILE.length);
      out.push(...result.rows);
      offset += result.consumedBytes;
      state = JSON.parse(JSON.stringify(result.state)) as SpreadsheetState;
    }
    return { rows: out, offset, state };
  }
  const whole = feed([]);

  it('reads the reference export', () => {
    expect(whole.rows.map((r) => r.fieldvalues)).toEqual([
      { Zeit: '2026-03-29T00:59:00.000000Z', Temp: 21.5, Status: 'läuft; ok', Menge: 1234, counter: 1 },
      { Zeit: '2026-03-29T01:00:00.000000Z', Temp: -0.5, Status: 'Störung', Menge: 12, counter: 2 },
      { Zeit: '2026-03-29T01:01:00.000000Z', Temp: null, Status: 'zwei\r\nZeilen', Menge: 0, counter: 3 },
    ]);
    expect(whole.offset).toBe(FILE.length);
  });

  it('gives the same rows for any split into chunks, the state going through JSON (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: FILE.length }), { maxLength: 10 }), (cuts) => {
        const split = feed(cuts);
        expect(split.rows).toEqual(whole.rows);
        expect(split.state).toEqual(whole.state);
        expect(split.offset).toBe(FILE.length);
      }),
      { numRuns: 400 },
    );
  });
});
