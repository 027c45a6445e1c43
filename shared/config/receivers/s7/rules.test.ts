import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../testing/config-fixtures.js';
import { validateConfiguration } from '../../validate.js';
import { templateFor } from '../../templates.js';
import { formatS7Address, parseS7Address, s7ByteCount } from './address.js';

/** The receiver of issue 53, as a plant engineer writes it. */
const issueExample = () => ({
  data_receiver_name: 'oven_s7',
  protocol: 's7',
  poll_interval: 1,
  connections: [{ host: '10.0.3.40', port: 102, rack: 0, slot: 1, timeout: 3 }],
  streams: [
    {
      asset: 'Oven_4',
      stream_type: 'process',
      s7_tags: [
        { exportname: 'temp', address: 'DB1,REAL0' },
        { exportname: 'count', address: 'DB1,INT4' },
        { exportname: 'door', address: 'DB1,X6.0' },
        { exportname: 'total', address: 'DB1,DINT8' },
        { exportname: 'state', address: 'DB1,BYTE12' },
        { exportname: 'word', address: 'DB1,WORD14' },
        { exportname: 'marker', address: 'MW10' },
        { exportname: 'flag', address: 'M0.1' },
      ] as Record<string, unknown>[],
    },
  ],
});

function violationsOf(receiver: Record<string, unknown>) {
  const doc = structuredClone(specExampleConfiguration()) as Record<string, any>;
  doc.data_receiver.push(receiver);
  return validateConfiguration(doc).violations.filter((v) => v.json_path[1] === 1);
}

function withAddress(address: string) {
  const receiver = issueExample();
  receiver.streams[0]!.s7_tags = [{ exportname: 'v', address }];
  return violationsOf(receiver);
}

describe('s7 addresses', () => {
  it('reads every type of a data block, with its size', () => {
    const cases: [string, object, number][] = [
      ['DB1,X6.0', { area: 'DB', db: 1, type: 'X', byte: 6, bit: 0 }, 1],
      ['DB1,X6.7', { type: 'X', byte: 6, bit: 7 }, 1],
      ['DB1,BYTE12', { type: 'BYTE', byte: 12 }, 1],
      ['DB1,CHAR40', { type: 'CHAR', byte: 40 }, 1],
      ['DB1,INT4', { type: 'INT', byte: 4 }, 2],
      ['DB1,WORD14', { type: 'WORD', byte: 14 }, 2],
      ['DB1,DINT8', { type: 'DINT', byte: 8 }, 4],
      ['DB1,DWORD16', { type: 'DWORD', byte: 16 }, 4],
      ['DB1,REAL0', { area: 'DB', db: 1, type: 'REAL', byte: 0 }, 4],
      ['DB1,S20.16', { type: 'STRING', byte: 20, length: 16 }, 18],
      ['db65535,real0', { db: 65535, type: 'REAL' }, 4],
      ['DB2,B3', { type: 'BYTE', byte: 3 }, 1],
      ['DB2,DI4', { type: 'DINT', byte: 4 }, 4],
      ['DB2,R8', { type: 'REAL', byte: 8 }, 4],
    ];
    for (const [text, expected, size] of cases) {
      const parsed = parseS7Address(text);
      expect(parsed.address, text).toMatchObject(expected);
      expect(s7ByteCount(parsed.address!), text).toBe(size);
    }
  });

  it('reads the M, I and Q areas by width and by bit', () => {
    const cases: [string, object][] = [
      ['MB0', { area: 'M', db: 0, type: 'BYTE', byte: 0 }],
      ['MW10', { area: 'M', type: 'WORD', byte: 10 }],
      ['MD20', { area: 'M', type: 'DWORD', byte: 20 }],
      ['IB2', { area: 'I', type: 'BYTE', byte: 2 }],
      ['IW0', { area: 'I', type: 'WORD' }],
      ['ID4', { area: 'I', type: 'DWORD' }],
      ['QB0', { area: 'Q', type: 'BYTE' }],
      ['QW2', { area: 'Q', type: 'WORD' }],
      ['QD4', { area: 'Q', type: 'DWORD' }],
      ['M0.1', { area: 'M', type: 'X', byte: 0, bit: 1 }],
      ['I0.0', { area: 'I', type: 'X', byte: 0, bit: 0 }],
      ['Q0.1', { area: 'Q', type: 'X', byte: 0, bit: 1 }],
    ];
    for (const [text, expected] of cases) expect(parseS7Address(text).address, text).toMatchObject(expected);
  });

  it('writes an address back in the form it reads', () => {
    for (const text of ['DB1,REAL0', 'DB1,X6.3', 'DB1,S20.16', 'DB7,DWORD2', 'MW10', 'MD20', 'IB1', 'M0.1', 'Q3.7']) expect(formatS7Address(parseS7Address(text).address!)).toBe(text);
  });

  it('refuses bad addresses with what to write', () => {
    const problems: [string, string][] = [
      ['DB1,X6', 'byte.bit with bit 0..7'],
      ['DB1,X6.8', 'byte.bit with bit 0..7'],
      ['DB1,S20', 'String[16]'],
      ['DB1,S20.255', 'length 1..254'],
      ['DB1,REAL0.1', 'only a bit (X) or a string (S)'],
      ['DB0,INT0', 'from 1 to 65535'],
      ['DB1,FLOAT0', 'FLOAT is not a type'],
      ['DB1,INT70000', 'beyond 65535'],
      ['MW', 'not an S7 address'],
      ['M0.8', 'bit 0..7'],
      ['T1', 'not an S7 address'],
      ['', 'not an S7 address'],
    ];
    for (const [text, words] of problems) expect(parseS7Address(text).problem, text).toContain(words);
  });

  it("names the typed form for STEP 7's absolute form, which has no type", () => {
    expect(parseS7Address('DB1.DBD0').problem).toContain('DB1,REAL0, DB1,DINT0 or DB1,DWORD0');
    expect(parseS7Address('DB1.DBW4').problem).toContain('DB1,INT4 or DB1,WORD4');
    expect(parseS7Address('DB1.DBB12').problem).toContain('DB1,BYTE12 or DB1,CHAR12');
    expect(parseS7Address('DB1.DBX6.0').problem).toContain('DB1,X6.0');
    expect(parseS7Address('DB1.DBD0').problem).toContain("STEP 7's absolute form");
  });
});

describe('s7 rules', () => {
  it('accepts the issue example as written', () => {
    expect(violationsOf(issueExample())).toEqual([]);
  });

  it('reports an absolute address at its json_path, naming the typed form', () => {
    const [violation] = withAddress('DB1.DBD0');
    expect(violation).toMatchObject({ level: 'error', json_path: ['data_receiver', 1, 'streams', 0, 's7_tags', 0, 'address'] });
    expect(violation!.description).toContain('DB1,REAL0');
    expect(violation!.description).toContain('DB1,DINT0');
  });

  it('reports a bad address at its json_path', () => {
    expect(withAddress('DB1,X6')[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['s7_tags', 0, 'address']) });
    expect(withAddress('XYZ')[0]!.description).toContain('not an S7 address');
  });

  it('refuses a column used twice or named like a record column, and warns about a second connection', () => {
    const receiver = issueExample();
    receiver.streams[0]!.s7_tags.push({ exportname: 'temp', address: 'DB1,REAL20' }, { exportname: 'timestamp', address: 'DB1,REAL24' });
    receiver.connections.push({ host: 'b', port: 102, rack: 0, slot: 1, timeout: 3 });
    expect(violationsOf(receiver).map((v) => [v.level, v.json_path.slice(-2)])).toEqual(
      expect.arrayContaining([
        ['error', [8, 'exportname']],
        ['error', [9, 'exportname']],
        ['warning', ['connections', 1]],
      ]),
    );
    expect(violationsOf(receiver)).toHaveLength(3);
  });

  it('offers a template that validates once its prompt is filled in', () => {
    const template = templateFor('s7');
    expect(template).toBeDefined();
    const receiver = structuredClone((template as any).data_receiver[0]);
    expect(receiver.protocol).toBe('s7');
    receiver.connections[0].host = '127.0.0.1';
    receiver.streams[0].asset = 'Oven_4';
    receiver.streams[0].stream_type = 'process';
    expect(violationsOf(receiver)).toEqual([]);
  });
});
