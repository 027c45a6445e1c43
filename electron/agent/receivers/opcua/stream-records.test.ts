import crypto from 'node:crypto';
import fc from 'fast-check';
import { DataType, DataValue, StatusCodes, Variant, VariantArrayType } from 'node-opcua';
import { describe, expect, it } from 'vitest';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { type Tag, StreamRecords, statusColumn } from './stream-records.js';
import { convertVariant, describeStatus, sampleMicros } from './values.js';

/**
 * The straightforward definition of a batch's records (the receiver's code before it was made
 * cheaper per value): what StreamRecords.build must give byte for byte, since its fingerprints are
 * stored (an agent restarted after an update compares against them) and its record ids identify
 * records downstream.
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

/** An agent restarted after the one before stored the last values of `first` (the reference's). */
function restarted(stream: { asset: string; stream_type: string }, tags: Tag[], saved: Map<string, string>, first: { tag: Tag; dataValue: DataValue }[]) {
  const before = new Reference(stream, tags, () => undefined);
  for (const [key, value] of Object.entries(before.build(first, 1n).state)) saved.set(key, value);
  return new StreamRecords(stream, tags, (key) => saved.get(key));
}

describe('StreamRecords.build', () => {
  it('gives the records, record ids and stored last values of the straightforward definition, batch after batch', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(names, { minLength: 1, maxLength: 6 }),
        fc.array(fc.array(fc.record({ tag: fc.nat(), value: variant, status, second: fc.integer({ min: -1, max: 3 }) }), { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (exportnames, batches, withSavedState) => {
          const tags = exportnames.map((exportname, i) => ({ node: `ns=2;s="${exportname}".${i}`, exportname }));
          const stream = { asset: 'Line_1', stream_type: 'process' };
          const saved = new Map<string, string>();
          const samplesOf = (batch: (typeof batches)[number]) =>
            batch.map(({ tag, value, status, second }) => ({
              tag: tags[tag % tags.length]!,
              // second -1: no source timestamp (the server's, or the capture time, is used)
              dataValue: new DataValue({ value, statusCode: status, sourceTimestamp: second < 0 ? null : new Date(BASE + second * 1000), sourcePicoseconds: second === 2 ? 7_000_000 : 0 }),
            }));
          const subject = withSavedState ? restarted(stream, tags, saved, samplesOf(batches[0]!)) : new StreamRecords(stream, tags, (key) => saved.get(key));
          const reference = new Reference(stream, tags, (key) => saved.get(key));
          batches.forEach((batch, n) => {
            const capture = BigInt(BASE + 10_000 + n) * 1000n;
            const samples = samplesOf(batch);
            const expected = reference.build(samples, capture);
            const actual = subject.build(samples, capture);
            expect(actual.records).toEqual(expected.records);
            expect(actual.records.map((r) => Object.keys(r.fieldvalues))).toEqual(expected.records.map((r) => Object.keys(r.fieldvalues)));
            expect(actual.state).toEqual(expected.state);
            subject.committed(actual);
            reference.committed(expected.state);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
