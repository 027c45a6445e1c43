import crypto from 'node:crypto';
import fc from 'fast-check';
import { DataType, DataValue, StatusCodes, Variant, VariantArrayType } from 'node-opcua';
import { describe, expect, it } from 'vitest';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { LAST_VALUES_KEY, LAST_VALUE_LAYOUT_KEY, LAST_VALUE_LIST_KEY } from './last-values.js';
import { type Tag, StreamRecords, statusColumn } from './stream-records.js';
import { convertVariant, describeStatus, sampleMicros } from './values.js';

/**
 * The straightforward definition of a batch's records (the receiver's code before it was made
 * cheaper per value): what StreamRecords.build must give byte for byte, since its record ids identify
 * records downstream. Its rows per tag (`tag:<exportname>`) are what builds before LAST_VALUES_KEY
 * stored: an agent updated in place must still recognise them.
 */
class Reference {
  readonly last = new Map<string, string>();
  constructor(
    readonly stream: { asset: string; stream_type: string },
    readonly tags: readonly Tag[],
    load: (key: string) => string | undefined,
  ) {
    for (const tag of tags) {
      const saved = load(`tag:${tag.exportname}`);
      if (saved !== undefined) this.last.set(tag.exportname, saved);
    }
  }

  build(samples: readonly { tag: Tag; dataValue: DataValue }[], captureMicros: bigint) {
    const byTime = new Map<bigint, Record<string, FieldValue>>();
    const state: Record<string, string> = {};
    const pending = new Map(this.last);
    for (const { tag, dataValue } of samples) {
      const micros = sampleMicros(dataValue, captureMicros);
      const { name } = describeStatus(dataValue.statusCode);
      const converted = convertVariant(dataValue.value);
      const columns: Record<string, FieldValue> = {};
      if (converted.kind === 'array') converted.values.forEach((v, i) => (columns[`${tag.exportname}_${i}`] = v));
      else columns[tag.exportname] = converted.kind === 'scalar' ? converted.value : null;
      columns[statusColumn(tag.exportname)] = name;
      const fingerprint = JSON.stringify({ t: isoMicros(micros), node: tag.node, columns });
      if (pending.get(tag.exportname) === fingerprint) continue;
      pending.set(tag.exportname, fingerprint);
      state[`tag:${tag.exportname}`] = fingerprint;
      let record = byTime.get(micros);
      if (!record) {
        record = {};
        for (const t of this.tags) {
          record[t.exportname] = null;
          record[statusColumn(t.exportname)] = null;
        }
        byTime.set(micros, record);
      }
      Object.assign(record, columns);
    }
    const capturetime = isoMicros(captureMicros);
    const records: AgentRecord[] = [...byTime.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([micros, fieldvalues]) => {
        const timestamp = isoMicros(micros);
        const present = Object.entries(fieldvalues)
          .filter(([, v]) => v !== null)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const record_id = crypto.createHash('sha256').update(`${this.stream.asset}\0${this.stream.stream_type}\0${timestamp}\0${JSON.stringify(present)}`).digest('hex').slice(0, 32);
        return { asset: this.stream.asset, stream_type: this.stream.stream_type, timestamp, capturetime, fieldvalues, record_id };
      });
    return { records, state };
  }

  committed(state: Record<string, string>): void {
    for (const tag of this.tags) if (state[`tag:${tag.exportname}`] !== undefined) this.last.set(tag.exportname, state[`tag:${tag.exportname}`]!);
  }
}

const names = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,8}$/), fc.constantFrom('7', '12', 'temp "inner"', 'Ölstand', 'a\\b', '\u2028x', 'constructor', 'toString'));
const variant = fc.oneof(
  fc.double().map((value) => new Variant({ dataType: DataType.Double, value })),
  fc.integer().map((value) => new Variant({ dataType: DataType.Int32, value })),
  fc.boolean().map((value) => new Variant({ dataType: DataType.Boolean, value })),
  fc.string().map((value) => new Variant({ dataType: DataType.String, value })),
  fc.constant(new Variant({ dataType: DataType.Null })),
  fc.array(fc.double(), { maxLength: 4 }).map((value) => new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: Float64Array.from(value) })),
  fc.constant(new Variant({ dataType: DataType.Double, arrayType: VariantArrayType.Array, value: new Float64Array(100) })),
);
const status = fc.constantFrom(StatusCodes.Good, StatusCodes.BadSensorFailure, StatusCodes.UncertainLastUsableValue);
const BASE = Date.UTC(2026, 2, 1, 10);

/** The row per stream (LAST_VALUES_KEY) that builds before the list stored for the same last values. */
function streamRow(state: Record<string, string>): Record<string, string> {
  if (state[LAST_VALUE_LIST_KEY] === undefined) return {};
  const list = JSON.parse(state[LAST_VALUE_LIST_KEY]!) as (0 | unknown[])[];
  const layout = JSON.parse(state[LAST_VALUE_LAYOUT_KEY]!) as [string, string][];
  const row: Record<string, unknown[]> = {};
  layout.forEach(([exportname, node], i) => {
    if (list[i] !== 0) row[exportname] = [node, ...(list[i] as unknown[])];
  });
  return { [LAST_VALUES_KEY]: JSON.stringify(row) };
}

/** The stored state (progress) a store would hold after committing these states in turn. */
function store(saved: Map<string, string>, state: Record<string, string>): void {
  for (const [key, value] of Object.entries(state)) saved.set(key, value);
}

describe('StreamRecords.build', () => {
  it('gives the records and record ids of the straightforward definition, batch after batch, across restarts and batches not stored', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(names, { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.record({
            samples: fc.array(fc.record({ tag: fc.nat(), value: variant, status, second: fc.integer({ min: -1, max: 3 }) }), { maxLength: 12 }),
            // The agent restarts before this batch: a new StreamRecords from what was stored.
            restart: fc.boolean(),
            // The batch could not be stored (outbox full): its values are not the last ones.
            stored: fc.boolean(),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        // What the agent before the first batch stored: nothing, the rows per tag or the stream's row
        // of older builds (an agent updated in place), or the list of this build.
        fc.constantFrom('nothing', 'rows per tag', 'stream row', 'list'),
        (exportnames, batches, before) => {
          const tags = exportnames.map((exportname, i) => ({ node: `ns=2;s="${exportname}".${i}`, exportname }));
          const stream = { asset: 'Line_1', stream_type: 'process' };
          const samplesOf = (batch: (typeof batches)[number]) =>
            batch.samples.map(({ tag, value, status, second }) => ({
              tag: tags[tag % tags.length]!,
              // second -1: no source timestamp (the server's, or the capture time, is used)
              dataValue: new DataValue({ value, statusCode: status, sourceTimestamp: second < 0 ? null : new Date(BASE + second * 1000), sourcePicoseconds: second === 2 ? 7_000_000 : 0 }),
            }));
          const referenceSaved = new Map<string, string>();
          const saved = new Map<string, string>();
          if (before !== 'nothing') {
            // The first batch, committed by the agent before; the batches after it are compared.
            const first = samplesOf(batches[0]!);
            store(referenceSaved, new Reference(stream, tags, () => undefined).build(first, 1n).state);
            if (before === 'rows per tag') store(saved, new Reference(stream, tags, () => undefined).build(first, 1n).state);
            else if (before === 'stream row') store(saved, streamRow(new StreamRecords(stream, tags, () => undefined).build(first, 1n).state));
            else store(saved, new StreamRecords(stream, tags, () => undefined).build(first, 1n).state);
          }
          let subject = new StreamRecords(stream, tags, (key) => saved.get(key));
          const reference = new Reference(stream, tags, (key) => referenceSaved.get(key));
          (before === 'nothing' ? batches : batches.slice(1)).forEach((batch, n) => {
            if (batch.restart) subject = new StreamRecords(stream, tags, (key) => saved.get(key));
            const capture = BigInt(BASE + 10_000 + n) * 1000n;
            const samples = samplesOf(batch);
            const expected = reference.build(samples, capture);
            const actual = subject.build(samples, capture);
            expect(actual.records).toEqual(expected.records);
            expect(actual.records.map((r) => Object.keys(r.fieldvalues))).toEqual(expected.records.map((r) => Object.keys(r.fieldvalues)));
            // Progress is stored exactly when a last value changed.
            expect(Object.keys(actual.state).length > 0).toBe(Object.keys(expected.state).length > 0);
            if (!batch.stored) return;
            subject.committed(actual);
            store(saved, actual.state);
            reference.committed(expected.state);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stores a list per stream, its layout only when it changes; reads older rows; an unreadable one records the next values again, never throws', () => {
    const tags = [
      { node: 'ns=2;s=A', exportname: 'a' },
      { node: 'ns=2;s=B', exportname: 'b' },
    ];
    const stream = { asset: 'Line_1', stream_type: 'process' };
    const value = (v: number, second: number) => new DataValue({ value: new Variant({ dataType: DataType.Double, value: v }), statusCode: StatusCodes.Good, sourceTimestamp: new Date(BASE + second * 1000) });
    const saved = new Map<string, string>();
    const first = new StreamRecords(stream, tags, () => undefined);
    const one = first.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }, { tag: tags[1]!, dataValue: value(2, 0) }], 1n);
    // The first commit of a run stores the layout with the list; the next ones the list alone.
    expect(Object.keys(one.state).sort()).toEqual([LAST_VALUE_LAYOUT_KEY, LAST_VALUE_LIST_KEY]);
    expect(JSON.parse(one.state[LAST_VALUE_LAYOUT_KEY]!)).toEqual([['a', 'ns=2;s=A'], ['b', 'ns=2;s=B']]);
    first.committed(one);
    store(saved, one.state);
    const two = first.build([{ tag: tags[1]!, dataValue: value(3, 1) }], 2n);
    expect(Object.keys(two.state)).toEqual([LAST_VALUE_LIST_KEY]);
    expect(JSON.parse(two.state[LAST_VALUE_LIST_KEY]!)).toEqual([[BASE * 1000, 'Good', 1.5], [(BASE + 1000) * 1000, 'Good', 3]]);
    first.committed(two);
    store(saved, two.state);
    // Restarted: the values stored are not recorded again, a new one is; the gap starts at the last one.
    const restarted = new StreamRecords(stream, tags, (key) => saved.get(key));
    expect(restarted.lastMicros('b')).toBe(BigInt(BASE + 1000) * 1000n);
    expect(restarted.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }, { tag: tags[1]!, dataValue: value(3, 1) }], 3n).records).toEqual([]);
    expect(restarted.build([{ tag: tags[0]!, dataValue: value(1.5, 2) }], 3n).records).toHaveLength(1);
    // Restream: the stored values are recorded again, and the layout is stored again with them (the
    // restream cleared the stream's state).
    restarted.committed(restarted.build([{ tag: tags[0]!, dataValue: value(1.5, 3) }], 4n));
    restarted.reset();
    expect(restarted.lastMicros('b')).toBeUndefined();
    const again = restarted.build([{ tag: tags[0]!, dataValue: value(1.5, 3) }, { tag: tags[1]!, dataValue: value(3, 1) }], 4n);
    expect(again.records).toHaveLength(2);
    expect(Object.keys(again.state).sort()).toEqual([LAST_VALUE_LAYOUT_KEY, LAST_VALUE_LIST_KEY]);
    // The same from the row per stream of an older build.
    const older = new StreamRecords(stream, tags, (key) => streamRow(Object.fromEntries(saved))[key]);
    expect(older.lastMicros('b')).toBe(BigInt(BASE + 1000) * 1000n);
    expect(older.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }, { tag: tags[1]!, dataValue: value(3, 1) }], 3n).records).toEqual([]);
    // A tag moved to another node is a new series: its value is recorded, and the layout says so.
    const moved = new StreamRecords(stream, [{ node: 'ns=2;s=A2', exportname: 'a' }, tags[1]!], (key) => saved.get(key));
    const movedBatch = moved.build([{ tag: { node: 'ns=2;s=A2', exportname: 'a' }, dataValue: value(1.5, 0) }], 3n);
    expect(movedBatch.records).toHaveLength(1);
    expect(JSON.parse(movedBatch.state[LAST_VALUE_LAYOUT_KEY]!)).toEqual([['a', 'ns=2;s=A2'], ['b', 'ns=2;s=B']]);
    // A batch that threw half-way (a value node-opcua could not give) leaves no trace in the next one.
    const broken = new StreamRecords(stream, tags, () => undefined);
    const throwing = { get statusCode(): never { throw new Error('unreadable'); } } as unknown as DataValue;
    expect(() => broken.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }, { tag: tags[1]!, dataValue: throwing }], 1n)).toThrow('unreadable');
    const after = broken.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }], 2n);
    expect(after.records.map((r) => r.fieldvalues)).toEqual([{ a: 1.5, a_status: 'Good', b: null, b_status: null }]);
    expect(JSON.parse(after.state[LAST_VALUE_LIST_KEY]!)).toEqual([[BASE * 1000, 'Good', 1.5], 0]);
    const unreadableRows = ['', '{', 'null', '[]', '{"a":5}', '{"a":["ns=2;s=A","x","Good",1]}', '{"a":["ns=2;s=A",1,"Good",{"x":1}]}'].map((row) => ({ [LAST_VALUES_KEY]: row }));
    const layout = JSON.stringify([['a', 'ns=2;s=A']]);
    const unreadableLists = [
      ['', layout],
      ['[', layout],
      ['[[1,"Good",1]]', 'null'],
      ['[[1,"Good",1]]', '[["a"]]'],
      ['[[1,"Good",1],[2,"Good",2]]', layout],
      ['[[1.5,"Good",1]]', layout],
      ['[[1,"Good",{"x":1}]]', layout],
      ['[{"a":1}]', layout],
    ].map(([list, layoutText]) => ({ [LAST_VALUE_LIST_KEY]: list!, [LAST_VALUE_LAYOUT_KEY]: layoutText! }));
    for (const state of [...unreadableRows, ...unreadableLists] as Record<string, string>[]) {
      const unreadable = new StreamRecords(stream, tags, (key) => state[key]);
      expect(unreadable.lastMicros('a'), JSON.stringify(state)).toBeUndefined();
      expect(unreadable.build([{ tag: tags[0]!, dataValue: value(1.5, 0) }], 3n).records).toHaveLength(1);
    }
  });
});
