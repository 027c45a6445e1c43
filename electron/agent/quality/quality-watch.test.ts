import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { qualitySettingsFor } from '../../../shared/config/data-quality-rules.js';
import type { DataQualityEntry } from '../../../shared/config/data-quality-schema.js';
import { type AgentRecord, isoFromMicros } from '../../../shared/records/record.js';
import { tempDirectory } from '../../testing/test-host.js';
import type { LogFile } from '../logging/log-file.js';
import { Logger, Redactor } from '../logging/logger.js';
import { QualityStore } from '../store/quality-store.js';
import { digestRecords } from '../components/quality-digest.js';
import { QualityWatch } from './quality-watch.js';

const T0 = Date.parse('2026-11-26T08:00:00Z');
const stream = { asset: 'Oven_2', stream_type: 'process' };

function setup(entries: DataQualityEntry[] | undefined, file?: string) {
  let now = T0;
  const clock = { nowMicros: () => BigInt(now) * 1000n };
  const lines: string[] = [];
  const logger = new Logger({ append: (line: string) => lines.push(line) } as unknown as LogFile, new Redactor(), clock, 'quality');
  const store = file ? new QualityStore(file) : undefined;
  const watch = new QualityWatch({ clock, logger, store });
  watch.configure(entries, [stream]);
  const settings = qualitySettingsFor(entries, 'Oven_2:process');
  /** Commits records (values per field, one per second of record time from `at` ms). */
  const commit = (rows: Record<string, number | string>[], at = now, step = 1000) => {
    const records: AgentRecord[] = rows.map((fieldvalues, i) => ({ ...stream, timestamp: isoFromMicros((at + i * step) * 1000), capturetime: isoFromMicros(now * 1000), fieldvalues, record_id: String(i) }));
    watch.committed(stream, records.length, digestRecords(settings, records));
  };
  return { watch, commit, lines, store, advance: (ms: number) => (now += ms), now: () => now };
}

const temps = (values: number[]) => values.map((temp, i) => ({ temp, pressure: 100 + i }));

describe('QualityWatch', () => {
  const stuck: DataQualityEntry[] = [{ filter_stream: ['*'], stuck: { after_seconds: 60, min_records: 10 }, range: { pressure: [0, 250] } }];

  it('opens a stuck finding once for the frozen field only, keeps it current, and closes it when the value changes', () => {
    const { watch, commit, lines, advance } = setup(stuck);
    commit(temps(Array(30).fill(21)), T0 - 120_000, 1000); // 29 s of record time: not yet
    expect(watch.findings(stream)).toEqual([]);
    commit(temps(Array(40).fill(21)), T0 - 90_000, 1000); // the run goes on across batches: 69 s, 70 records
    expect(watch.findings(stream)).toEqual([{ check: 'stuck', field: 'temp', since: '2026-11-26T07:58:00.000Z', detail: 'temp has read 21 for 1 min (70 records)', code: 'quality.stuck', params: { field: 'temp', value: 21, duration: '1 min', count: 70 } }]);
    commit(temps(Array(10).fill(21)), T0 - 50_000, 1000);
    expect(watch.findings(stream)).toHaveLength(1);
    expect(watch.findings(stream)[0]!.detail).toBe('temp has read 21 for 1 min (80 records)');
    expect(lines.filter((l) => l.includes('| WARNING |'))).toHaveLength(1);
    advance(1000);
    commit(temps([21, 22, 23]), T0 - 40_000);
    expect(watch.findings(stream)).toEqual([]);
    expect(lines.at(-1)).toMatch(/Data quality of Oven_2:process: stuck \(temp\) ended after 1 min: temp reads another value. It was: temp has read 21 for 1 min \(80 records\)/);
  });

  it('reports a run that froze and thawed inside one batch, opened and closed', () => {
    const { watch, commit, lines } = setup(stuck);
    commit(temps([1, 2, ...Array(100).fill(5), 6, 7]), T0 - 200_000);
    expect(watch.findings(stream)).toEqual([]);
    expect(lines.join('\n')).toMatch(/stuck \(temp\): temp has read 5 for 1 min \(100 records\)[\s\S]*stuck \(temp\) ended/);
  });

  it('opens a range finding for a value outside [low, high] and closes it when values are back in range', () => {
    const { watch, commit } = setup(stuck);
    commit([{ temp: 1, pressure: 100 }, { temp: 2, pressure: 412 }, { temp: 3, pressure: 300 }]);
    expect(watch.findings(stream)).toEqual([expect.objectContaining({ check: 'range', field: 'pressure', detail: 'pressure read 412, outside [0, 250] (2 records out of range)' })]);
    commit([{ temp: 4, pressure: 500 }, { temp: 5, pressure: 120 }]);
    expect(watch.findings(stream)).toEqual([]);
  });

  it('by default opens a clock finding for a record time 5 min ahead, and a schema finding for changed columns', () => {
    const { watch, commit } = setup(undefined);
    commit([{ temp: 1 }], T0 + 200_000);
    expect(watch.findings(stream)).toEqual([]);
    commit([{ temp: 1 }], T0 + 2 * 3600_000);
    expect(watch.findings(stream)).toEqual([{ check: 'clock', field: null, since: new Date(T0).toISOString(), detail: "record time 2026-11-26T10:00:00.000Z is 2 h ahead of this PC's clock", code: 'quality.clock_ahead', params: { time: '2026-11-26T10:00:00.000Z', duration: '2 h' } }]);
    commit([{ temp: 1 }]);
    expect(watch.findings(stream)).toEqual([]);
    commit([{ temp: 1, humidity: 3 }]);
    expect(watch.findings(stream)).toEqual([expect.objectContaining({ check: 'schema', field: null, detail: 'the columns changed: added humidity' })]);
  });

  it('sees a changed column between columns that stay (same count, same first and last column)', () => {
    const { watch, commit } = setup(undefined);
    commit([{ temp: 1, humidity: 2, speed: 3 }]);
    commit([{ temp: 1, humidity: 2, speed: 3 }]);
    expect(watch.findings(stream)).toEqual([]);
    commit([{ temp: 1, pressure: 2, speed: 3 }]);
    expect(watch.findings(stream)).toEqual([expect.objectContaining({ check: 'schema', field: null, detail: 'the columns changed: added pressure; removed humidity' })]);
  });

  it('opens a gap finding after the configured wait and closes it with the next record; by default only once the usual interval is known', () => {
    const { watch, commit, advance } = setup([{ filter_stream: ['*'], gap: { after_seconds: 60 } }]);
    advance(59_000);
    watch.tick();
    expect(watch.findings(stream)).toEqual([]);
    advance(2_000);
    watch.tick();
    expect(watch.findings(stream)).toEqual([expect.objectContaining({ check: 'gap', detail: 'no record for 1 min' })]);
    commit([{ temp: 1 }]);
    expect(watch.findings(stream)).toEqual([]);

    const usual = setup(undefined);
    for (let i = 0; i < 4; i += 1) {
      usual.advance(60_000);
      usual.commit([{ temp: i }]);
    }
    usual.advance(9 * 60_000);
    usual.watch.tick();
    expect(usual.watch.findings(stream)).toEqual([]);
    usual.advance(2 * 60_000);
    usual.watch.tick();
    expect(usual.watch.findings(stream)).toEqual([expect.objectContaining({ check: 'gap', detail: 'no record for 11 min (usually one every 1 min)' })]);
  });

  it('closes a finding whose check a new configuration no longer has', () => {
    const { watch, commit, lines } = setup(stuck);
    commit([{ temp: 1, pressure: 999 }]);
    expect(watch.findings(stream)).toHaveLength(1);
    watch.configure([{ filter_stream: ['*'], range: { temp: [0, 10] } }], [stream]);
    expect(watch.findings(stream)).toEqual([]);
    expect(lines.at(-1)).toMatch(/range \(pressure\) ended after 0 s: the check is no longer configured/);
  });

  it('keeps open findings across a restart, and closes them as the condition ends', () => {
    const file = path.join(tempDirectory(), 'flow-history.db');
    const first = setup(stuck, file);
    first.commit(temps(Array(100).fill(7)), T0 - 200_000);
    first.commit([{ temp: 7, pressure: 999 }]);
    first.watch.stop();
    first.store!.close();
    const second = setup(stuck, file);
    expect(second.watch.findings(stream).map((f) => [f.check, f.field])).toEqual([['stuck', 'temp'], ['range', 'pressure']]);
    second.commit([{ temp: 8, pressure: 100 }, { temp: 9, pressure: 100 }]);
    expect(second.watch.findings(stream)).toEqual([]);
    expect(second.store!.since(T0 - 3600_000).map((f) => [f.check_name, f.until !== null])).toEqual([['stuck', true], ['range', true]]);
  });
});
