import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../shared/records/record.js';
import { tempDirectory } from '../../testing/test-host.js';
import type { Clock } from '../time/clock.js';
import { openKpiDatabase } from './kpi-database.js';
import { builtInComponents } from '../catalog/built-in.js';
import { UPLOAD_OUTBOX } from '../transmits/remotedatapost/upload-outbox.js';
import { MQTT_OUTBOX } from '../transmits/mqtt/mqtt-outbox.js';
import { RecordHistory } from './record-history.js';

class FakeClock implements Clock {
  constructor(public ms: number) {}
  nowMicros(): bigint {
    return BigInt(this.ms) * 1000n;
  }
}

const record = (id: string, asset: string, timestamp: string, fieldvalues: AgentRecord['fieldvalues']): AgentRecord => ({ asset, stream_type: 'cycle', timestamp, capturetime: timestamp, fieldvalues, record_id: id });
const micros = (iso: string) => Date.parse(iso) * 1000;
const DAY = 24 * 3600 * 1000;

const open: { close(): void }[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

function history(clock: Clock, retentionMs = 7 * DAY, maxRecords = 1000) {
  const db = openKpiDatabase(path.join(tempDirectory(), 'state', 'kpi.db'));
  open.push(db);
  const registry = builtInComponents();
  return new RecordHistory(db, { clock, retentionMs, maxRecords, decode: (format, payload) => registry.decode(format, payload) });
}

describe('RecordHistory', () => {
  it('keeps records per machine, once per record_id, and returns them by time range', () => {
    const h = history(new FakeClock(Date.parse('2026-01-05T10:00:00Z')));
    const batch = [record('a', 'M1', '2026-01-05T06:00:00.000000Z', { x: 1 }), record('b', 'M1', '2026-01-05T07:00:00.000000Z', { x: 2 }), record('c', 'M2', '2026-01-05T06:30:00.000000Z', { x: 3 })];
    h.remember(batch);
    // The same batch read again (a restream of the same file) replaces the stored one.
    h.remember(batch);
    expect(h.count()).toBe(3);
    // A record read again in another batch is evaluated once, with its latest values.
    h.remember([record('a', 'M1', '2026-01-05T06:00:00.000000Z', { x: 10 })]);
    expect(h.recordsOf('M1', micros('2026-01-05T06:00:00Z'), micros('2026-01-05T07:00:00Z'), 100)).toEqual([{ timestamp: micros('2026-01-05T06:00:00Z'), fieldvalues: { x: 10 } }]);
    expect(h.recordsOf('M1', 0, micros('2027-01-01T00:00:00Z'), 100).map((r) => r.fieldvalues.x)).toEqual([10, 2]);
    expect(h.machinesBetween(micros('2026-01-05T00:00:00Z'), micros('2026-01-06T00:00:00Z'))).toEqual(['M1', 'M2']);
  });

  it('forgets what was received longer ago than the retention (default 7 days), and the oldest beyond the limit', () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const h = history(clock, 7 * DAY, 3);
    h.remember([record('old', 'M1', '2025-06-01T00:00:00.000000Z', { x: 1 })]);
    clock.ms += 6 * DAY;
    h.remember([record('newer', 'M1', '2025-06-02T00:00:00.000000Z', { x: 2 })]);
    clock.ms += 2 * DAY;
    h.prune();
    expect(h.count()).toBe(1);
    h.remember([1, 2, 3].map((i) => record(`n${i}`, 'M1', '2025-06-03T00:00:00.000000Z', { x: i })));
    h.prune();
    expect(h.count()).toBe(3);
    expect(h.recordsOf('M1', 0, micros('2030-01-01T00:00:00Z'), 10).map((r) => r.fieldvalues.x).sort()).toEqual([1, 2, 3]);
  });

  it('reads a record with an impossible time stamp at its capture time, not at a made-up time', () => {
    const h = history(new FakeClock(Date.parse('2026-01-05T10:00:00Z')));
    h.remember([{ ...record('bad', 'M1', '2026-01-05T06:00:99.000000Z', { x: 1 }), capturetime: '2026-01-05T09:00:00.000000Z' }]);
    expect(h.recordsOf('M1', 0, micros('2027-01-01T00:00:00Z'), 10)).toEqual([{ timestamp: micros('2026-01-05T09:00:00Z'), fieldvalues: { x: 1 } }]);
  });

  it('keeps the batches of a codec it may keep (upload bodies) as they are and reads them back like other batches', () => {
    const h = history(new FakeClock(Date.parse('2026-01-05T10:00:00Z')));
    const records = [3, 1, 2].map((i) => record(`u${i}`, 'M1', `2026-01-05T06:0${i}:00.000000Z`, { x: i, state: 'running' }));
    const encoded = () => UPLOAD_OUTBOX.encode(records, { maxRequestRecords: 2 }).map((b) => ({ ...b, format: UPLOAD_OUTBOX.format, asset: 'M1', stream_type: 'cycle' }));
    expect(h.rememberEncoded(encoded())).toBe(3);
    // Read again (a restream): the same batches replace themselves.
    h.rememberEncoded(encoded());
    expect(h.count()).toBe(3);
    expect(h.recordsOf('M1', micros('2026-01-05T06:02:00Z'), micros('2026-01-05T07:00:00Z'), 100)).toEqual([
      { timestamp: micros('2026-01-05T06:02:00Z'), fieldvalues: { x: 2, state: 'running' } },
      { timestamp: micros('2026-01-05T06:03:00Z'), fieldvalues: { x: 3, state: 'running' } },
    ]);
    expect(h.machinesBetween(micros('2026-01-05T06:00:00Z'), micros('2026-01-05T06:02:00Z'))).toEqual(['M1']);
  });

  it('keeps MQTT messages as they are, records out of time order included, and finds them by their time span', () => {
    const h = history(new FakeClock(Date.parse('2026-01-05T10:00:00Z')));
    // A batch whose first and last records are not its earliest and latest.
    const records = [5, 1, 9, 3].map((i) => record(`m${i}`, 'M1', `2026-01-05T06:0${i}:00.000000Z`, { x: i }));
    for (const format of ['array', 'record'] as const) {
      const options = MQTT_OUTBOX.options({ message_format: format, additional_fields: { site: 'P1' } });
      const encoded = MQTT_OUTBOX.encode(records, options).map((b) => ({ ...b, format: MQTT_OUTBOX.format, asset: 'M1', stream_type: 'cycle' }));
      expect(h.rememberEncoded(encoded)).toBe(4);
    }
    expect(h.recordsOf('M1', micros('2026-01-05T06:08:00Z'), micros('2026-01-05T06:10:00Z'), 100)).toEqual([{ timestamp: micros('2026-01-05T06:09:00Z'), fieldvalues: { x: 9 } }]);
    expect(h.recordsOf('M1', micros('2026-01-05T06:00:00Z'), micros('2026-01-05T06:02:00Z'), 100)).toEqual([{ timestamp: micros('2026-01-05T06:01:00Z'), fieldvalues: { x: 1 } }]);
  });
});

describe('RecordHistory.knownData', () => {
  it('lists each machine with the field names of its newest batch, also for batches kept as upload bodies', () => {
    const h = history(new FakeClock(Date.parse('2026-01-05T10:00:00Z')));
    expect(h.knownData()).toEqual({});
    h.remember([record('a', 'M1', '2026-01-05T06:00:00.000000Z', { old_name: 1 })]);
    h.remember([record('b', 'M1', '2026-01-05T07:00:00.000000Z', { x: 1, state: 'ok' }), record('c', 'M2', '2026-01-05T06:30:00.000000Z', { y: 3 })]);
    const encoded = UPLOAD_OUTBOX.encode([record('u', 'M3', '2026-01-05T06:00:00.000000Z', { speed: 2 })], { maxRequestRecords: 10 });
    h.rememberEncoded(encoded.map((b) => ({ ...b, format: UPLOAD_OUTBOX.format, asset: 'M3', stream_type: 'cycle' })));
    const known = h.knownData();
    expect(Object.keys(known)).toEqual(['M1', 'M2', 'M3']);
    expect(known.M1!.sort()).toEqual(['state', 'x']);
    expect(known.M2).toEqual(['y']);
    expect(known.M3).toEqual(['speed']);
    expect(Object.keys(h.knownData(2))).toEqual(['M1', 'M2']);
  });
});
