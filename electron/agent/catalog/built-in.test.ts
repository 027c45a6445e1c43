import { describe, expect, it } from 'vitest';
import { TransformSchema } from '../../../shared/config/schema.js';
import { record } from '../../testing/records.js';
import { builtInComponents } from './built-in.js';
import { outboxReaders } from './outbox-codecs.js';
import { CSV_COLUMNS_OUTBOX } from '../transmits/csv/csv-outbox.js';
import { RECORDS_JSON } from '../components/records-json-codec.js';

const base = { transform_name: 't', filter_stream: ['*'] };

describe('the built-in registry', () => {
  it('creates the implemented transform types by transform_type', () => {
    const registry = builtInComponents();
    const configs = [
      { ...base, transform_type: 'convert_timestamps', field_names: 'time' },
      { ...base, transform_type: 'rename', renames: { a: 'b' } },
      { ...base, transform_type: 'filter', field_name: 'a', op: 'exists' },
      { ...base, transform_type: 'checksum_record' },
    ];
    for (const config of configs) expect(registry.createTransform(TransformSchema.parse(config))?.name).toBe('t');
    const renamed = registry.createTransform(TransformSchema.parse(configs[1]))!.apply([record({ a: 1 })]);
    expect(renamed.records[0]!.fieldvalues).toEqual({ b: 1 });
  });

  it.each(['counter_assign_column', 'counter_event_string', 'pandas'])('has no transform %s: records pass unchanged', (type) => {
    const registry = builtInComponents();
    expect(registry.has('Transform', type)).toBe(false);
    expect(registry.createTransform(TransformSchema.parse({ ...base, transform_type: type }))).toBeUndefined();
  });

  it('gives each transmit type its own outbox codec, and records as they are to a type it cannot run', () => {
    const registry = builtInComponents();
    expect(registry.outbox('remotedatapost').format).toBe('upload');
    expect(registry.outbox('csv').format).toBe('csv-text');
    expect(registry.outbox('mqtt').format).toBe('mqtt-json');
    expect(registry.has('Transmit', 'kafka')).toBe(false);
    expect(registry.outbox('kafka')).toBe(RECORDS_JSON);
  });

  it('reads a stored batch back by its format, and names a format it cannot read', () => {
    const registry = builtInComponents();
    const records = [record({ a: 1 }), record({ a: 2 }, { record_id: 'r2', timestamp: '2026-01-05T06:00:01.000000Z' })];
    for (const type of ['csv', 'remotedatapost', 'mqtt']) {
      const codec = registry.outbox(type);
      const [batch] = codec.encode(records, codec.options({ max_request_records: 3000 }));
      expect(registry.decode(codec.format, batch!.payload).map((r) => r.fieldvalues.a)).toEqual([1, 2]);
    }
    // Batches the builds before stored for a csv transmit (records as JSON, then by column) are still read.
    expect(registry.decode(RECORDS_JSON.format, RECORDS_JSON.encode(records, {})[0]!.payload)).toEqual(records);
    expect(registry.decode('csv-columns', CSV_COLUMNS_OUTBOX.encode(records, {})[0]!.payload)).toEqual(records);
    expect(() => registry.decode('carrier-pigeon', Buffer.from('x'))).toThrow(/"carrier-pigeon" cannot be read/);
  });

  it('reads every outbox format of the build in the encode thread too (outbox-codecs.ts), which loads no transforms', () => {
    const readers = outboxReaders();
    expect(readers.readableFormats()).toEqual(builtInComponents().readableFormats());
    expect(readers.readableFormats()).toEqual(expect.arrayContaining(['upload', 'csv-text', 'csv-columns', 'mqtt-json', 'json']));
    const records = [record({ a: 1 })];
    const upload = builtInComponents().outbox('remotedatapost');
    const [batch] = upload.encode(records, upload.options({ max_request_records: 3000 }));
    expect(readers.decode(upload.format, batch!.payload).map((r) => r.fieldvalues.a)).toEqual([1]);
    expect(readers.has('Transform', 'rename')).toBe(false);
  });

  it('loads receiver and transmit services on first use', async () => {
    const registry = builtInComponents();
    for (const [kind, type] of [['Receiver', 'localfile'], ['Receiver', 'smb'], ['Receiver', 'sql'], ['Receiver', 'opcua'], ['Receiver', 'modbus'], ['Receiver', 's7'], ['Transmit', 'csv'], ['Transmit', 'remotedatapost']] as const)
      expect(typeof (await registry.factory(kind, type)), `${kind} ${type}`).toBe('function');
    expect(await registry.factory('Receiver', 'bacnet')).toBeUndefined();
  });
});
