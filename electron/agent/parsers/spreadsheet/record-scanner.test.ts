import { describe, expect, it } from 'vitest';
import { scanRecords, splitCells } from './record-scanner.js';

const comma = [0x2c];
const scan = (text: string, final = false) => {
  const bytes = Buffer.from(text, 'utf8');
  const result = scanRecords(bytes, 0, comma, 1, true, final);
  return { consumed: result.consumed, records: result.records.map((r) => bytes.toString('utf8', r.start, r.contentEnd)), newlines: result.records.map((r) => r.newlines) };
};

describe('scanRecords', () => {
  it('ends records at LF and CRLF, leaving an incomplete last line', () => {
    expect(scan('a,b\r\nc,d\ne,f')).toEqual({ consumed: 9, records: ['a,b', 'c,d'], newlines: [1, 1] });
  });

  it('takes the incomplete last line when final', () => {
    expect(scan('a,b\ne,f', true)).toEqual({ consumed: 7, records: ['a,b', 'e,f'], newlines: [1, 0] });
    expect(scan('a,b\ne,f\r', true).records).toEqual(['a,b', 'e,f']);
  });

  it('keeps newlines inside quoted cells and counts them', () => {
    expect(scan('"x\ny",1\n"p\r\nq"\n')).toEqual({ consumed: 15, records: ['"x\ny",1', '"p\r\nq"'], newlines: [2, 2] });
  });

  it('does not end a record while a quote is open, even at the end of the chunk', () => {
    expect(scan('a,"open\nstill open').consumed).toBe(0);
    expect(scanRecords(Buffer.from('a,"open\n'), 0, comma, 1, true, true).records[0]!.unterminatedQuote).toBe(true);
  });

  it('treats "" inside quotes as a quote and a quote inside an unquoted cell as text', () => {
    expect(scan('"a""\nb",1\n').records).toEqual(['"a""\nb",1']);
    expect(scan('5" pipe,2\nnext,3\n').records).toEqual(['5" pipe,2', 'next,3']);
  });

  it('walks UTF-16 code units in both byte orders', () => {
    const le = Buffer.from('a,"b\nc"\nd,e\n', 'utf16le');
    expect(scanRecords(le, 0, comma, 2, true, false).consumed).toBe(le.length);
    expect(scanRecords(le, 0, comma, 2, true, false).records).toHaveLength(2);
    const be = Buffer.from(le).swap16();
    expect(scanRecords(be, 0, comma, 2, false, false).records.map((r) => r.end)).toEqual([16, 24]);
  });
});

describe('splitCells', () => {
  it.each([
    ['a,b,c', ',', ['a', 'b', 'c']],
    ['a,,c,', ',', ['a', '', 'c', '']],
    ['"a,b","c""d",e', ',', ['a,b', 'c"d', 'e']],
    ['"multi\nline",2', ',', ['multi\nline', '2']],
    ['"ab"c,d', ',', ['abc', 'd']],
    ['5" pipe,2', ',', ['5" pipe', '2']],
    ['""', ',', ['']],
    ['a\tb\t"c\td"', '\t', ['a', 'b', 'c\td']],
    ['a;;b;;"c;;d"', ';;', ['a', 'b', 'c;;d']],
  ])('%j split by %j', (text, separator, cells) => {
    expect(splitCells(text, separator)).toEqual(cells);
  });
});
