import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordCursor, type ScanResult, type ScannedRecord, scanRecords, splitCells } from './record-scanner.js';

/** The scanner before the cursor and its fast path, verbatim: one state machine over all records. */
function referenceScan(bytes: Buffer, from: number, separator: number[], width: 1 | 2, littleEndian: boolean, final: boolean): ScanResult {
  const readUnit = (i: number) => (width === 1 ? bytes[i]! : littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
  const separatorAt = (i: number) => {
    for (let k = 0; k < separator.length; k += 1) {
      const at = i + k * width;
      if (at + width > bytes.length || readUnit(at) !== separator[k]) return false;
    }
    return true;
  };
  const [CellStart, Unquoted, Quoted, QuoteInQuoted] = [0, 1, 2, 3];
  const records: ScannedRecord[] = [];
  const limit = bytes.length - ((bytes.length - from) % width);
  let state = CellStart;
  let start = from;
  let newlines = 0;
  let i = from;
  while (i < limit) {
    const unit = readUnit(i);
    if (unit === 0x0a) {
      newlines += 1;
      if (state !== Quoted) {
        const end = i + width;
        const hasCr = i - width >= start && readUnit(i - width) === 0x0d;
        records.push({ start, contentEnd: hasCr ? i - width : i, end, newlines, unterminatedQuote: false });
        start = end;
        newlines = 0;
        state = CellStart;
      }
      i += width;
      continue;
    }
    if (state === Quoted) {
      if (unit === 0x22) state = QuoteInQuoted;
      i += width;
      continue;
    }
    if (unit === separator[0] && separatorAt(i)) {
      state = CellStart;
      i += separator.length * width;
      continue;
    }
    if (state === CellStart) state = unit === 0x22 ? Quoted : Unquoted;
    else if (state === QuoteInQuoted) state = unit === 0x22 ? Quoted : Unquoted;
    i += width;
  }
  if (final && start < bytes.length) {
    const hasCr = limit - width >= start && readUnit(limit - width) === 0x0d;
    records.push({ start, contentEnd: hasCr ? limit - width : limit, end: bytes.length, newlines, unterminatedQuote: state === Quoted });
    start = bytes.length;
  }
  return { records, consumed: start };
}

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

describe('scanRecords against the single state machine it replaced', () => {
  const text = fc.string({ unit: fc.constantFrom('a', '1', ',', ',', ';', '"', '"', '\n', '\n', '\r', 'é', '€', ' ', '\t'), maxLength: 60 });
  const layout = fc.record({
    text,
    encoding: fc.constantFrom('utf8', 'latin1', 'utf16le', 'utf16be'),
    separator: fc.constantFrom(',', ';', '\t', ';;', ',\n', '"'),
    final: fc.boolean(),
    from: fc.nat(6),
    oddTail: fc.boolean(),
  });
  const encode = (value: string, encoding: string) => {
    if (encoding === 'utf16be') return Buffer.from(value, 'utf16le').swap16();
    return Buffer.from(value, encoding as BufferEncoding);
  };

  it('finds the same records, offsets, newlines and open quotes', () => {
    fc.assert(
      fc.property(layout, ({ text: value, encoding, separator, final, from, oddTail }) => {
        const width = encoding.startsWith('utf16') ? 2 : 1;
        let bytes = encode(value, encoding);
        if (oddTail) bytes = Buffer.concat([bytes, Buffer.from([0x41])]);
        const start = Math.min(from * width, bytes.length);
        const units = width === 2 ? [...separator].map((c) => c.charCodeAt(0)) : [...encode(separator, encoding)];
        const littleEndian = encoding !== 'utf16be';
        expect(scanRecords(bytes, start, units, width, littleEndian, final)).toEqual(referenceScan(bytes, start, units, width, littleEndian, final));
      }),
      { numRuns: 20_000 },
    );
  });

  it('says a record has no quote only when it has none', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (value, final) => {
        const bytes = Buffer.from(value);
        const cursor = new RecordCursor(bytes, 0, { separator: [0x2c], width: 1, littleEndian: true, final });
        while (cursor.next()) {
          if (!cursor.mayHaveQuote) expect(bytes.subarray(cursor.start, cursor.end).includes(0x22)).toBe(false);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
