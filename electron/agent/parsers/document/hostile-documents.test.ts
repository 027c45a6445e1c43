/**
 * Whatever a file holds, a document reader ends with records, skipped records or a DocumentError
 * naming the place: never a crash, a stack overflow or unbounded memory (hardening rule).
 */
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ParserSchema } from '../../../../shared/config/schema.js';
import { DocumentError, bufferSource, openDocumentReader } from './index.js';

function readAll(parser: Record<string, unknown>, bytes: Buffer) {
  const config = ParserSchema.parse({ parser_name: 'p', ...parser });
  const reader = openDocumentReader(config as never, bufferSource(bytes), 'f');
  const records = [];
  const problems: string[] = [];
  while (!reader.done) {
    records.push(...reader.next(100));
    problems.push(...reader.takeProblems());
  }
  return { records, problems };
}

const workbook = (sheet: string) =>
  Buffer.from(zipSync({
    'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1" xmlns:r="r"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8(sheet),
  }));

describe('hostile documents', () => {
  it('stops XML nested a hundred thousand deep at the bound, naming the line and column', () => {
    const deep = Buffer.from(`<?xml version="1.0"?>\n${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`);
    expect(() => readAll({ parser_type: 'xml', options: { xpath: '//b' } }, deep)).toThrow(/f line 2 column \d+: elements nested deeper than 256 levels/);
  });

  it('stops a JSON document nested a hundred thousand deep, and skips such a JSON line among good ones', () => {
    expect(() => readAll({ parser_type: 'json' }, Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toThrow(DocumentError);
    const lines = Buffer.from(`{"n":1}\n${'['.repeat(100_000)}${']'.repeat(100_000)}\n{"n":2}\nnot json\n`);
    const { records, problems } = readAll({ parser_type: 'json', options: { lines: true } }, lines);
    expect(records.map((r) => r.fieldvalues.n)).toEqual([1, 2]);
    expect(problems).toEqual([expect.stringMatching(/^f line 2: nested deeper than 256/), expect.stringMatching(/^f line 4: /)]);
  });

  it('skips a JSON line of objects nested a hundred thousand deep, or an array deep inside an object, and keeps a __proto__ field', () => {
    const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const deepArray = `{"x":{"y":${'['.repeat(300)}${']'.repeat(300)}}}`;
    const lines = Buffer.from(`{"n":1}\n${deepObject}\n${deepArray}\n{"n":2,"__proto__":null,"v":{"w":[1]}}\n`);
    const { records, problems } = readAll({ parser_type: 'json', options: { lines: true } }, lines);
    expect(records.map((r) => ({ ...r.fieldvalues }))).toEqual([{ n: 1 }, { n: 2, ['__proto__']: null, 'v.w': '[1]' }]);
    expect(Object.keys(records[1]!.fieldvalues)).toEqual(['n', '__proto__', 'v.w']);
    expect(problems).toEqual([expect.stringMatching(/^f line 2: nested deeper than 256/), expect.stringMatching(/^f line 3: nested deeper than 256/)]);
  });

  it('names a file that is no workbook, and a workbook cut short, without reading on', () => {
    expect(() => readAll({ parser_type: 'excel' }, Buffer.from('time,value\n1,2\n'))).toThrow(/^f: not an Excel workbook/);
    const good = workbook('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData></worksheet>');
    expect(readAll({ parser_type: 'excel' }, good).records.map((r) => r.fieldvalues)).toEqual([{ a: 1 }]);
    expect(() => readAll({ parser_type: 'excel' }, good.subarray(0, good.length - 30))).toThrow(DocumentError);
  });

  it('bounds a sheet row and its columns', () => {
    const wide = workbook(`<worksheet><sheetData><row r="1"><c r="ZZZZ1"><v>1</v></c></row></sheetData></worksheet>`);
    expect(() => readAll({ parser_type: 'excel' }, wide)).toThrow(/sheet "S" row \d+: a cell beyond column 16384/);
  });

  it('refuses millions of empty shared strings before keeping them, and reads one below the bound (issue 50)', () => {
    // 4 million <si/>: no characters at all, so a bound on characters alone let 200 million through
    // (1.4 MB zipped) until the thread ran out of memory.
    const shared = (entry: string, count: number) =>
      Buffer.from(zipSync({
        'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1" xmlns:r="r"/></sheets></workbook>'),
        'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
        'xl/sharedStrings.xml': strToU8(`<sst>${entry.repeat(count)}</sst>`),
        'xl/worksheets/sheet1.xml': strToU8('<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData></worksheet>'),
      }, { level: 1 }));
    expect(() => readAll({ parser_type: 'excel' }, shared('<si/>', 4_000_000))).toThrow(/sharedStrings\.xml: more shared strings than a parse thread holds \(over 3,\d{3},\d{3} entries/);
    // Below the bound a workbook with many shared strings reads.
    const { records } = readAll({ parser_type: 'excel' }, shared('<si><t>name</t></si>', 10_000));
    expect(records.map((r) => r.fieldvalues)).toEqual([{ name: 1 }]);
  });

  it('bounds the fields of an XML record by count, also when they hold no text (children or attributes)', () => {
    const children = Array.from({ length: 20_000 }, (_, i) => `<f${i}/>`).join('');
    expect(() => readAll({ parser_type: 'xml', options: { xpath: '//r' } }, Buffer.from(`<d><r>${children}</r></d>`))).toThrow(/a record has more than 10000 fields/);
    const attributes = Array.from({ length: 20_000 }, (_, i) => `a${i}=""`).join(' ');
    expect(() => readAll({ parser_type: 'xml', options: { xpath: '//r' } }, Buffer.from(`<d><r ${attributes}/></d>`))).toThrow(/a record has more than 10000 fields/);
    const fine = Array.from({ length: 50 }, (_, i) => `<f${i}>${i}</f${i}>`).join('');
    expect(Object.keys(readAll({ parser_type: 'xml', options: { xpath: '//r' } }, Buffer.from(`<d><r>${fine}</r></d>`)).records[0]!.fieldvalues)).toHaveLength(50);
  });

  it('refuses an encoding it cannot decode by name, and reads one it can', () => {
    expect(() => readAll({ parser_type: 'xml' }, Buffer.from('<?xml version="1.0" encoding="x-klingon"?><r><m a="1"/></r>'))).toThrow(/x-klingon/);
    const latin = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r><m a="'), Buffer.from([0xe4]), Buffer.from('"/></r>')]);
    expect(readAll({ parser_type: 'xml' }, latin).records.map((r) => r.fieldvalues)).toEqual([{ a: 'ä' }]);
  });
});
