import { describe, expect, it } from 'vitest';
import type { FieldValue } from '../records/record.js';
import { evaluateKpi, kpiStatus, type HistoryRecord } from './evaluate.js';
import { availabilityKpi, microStopsKpi, mtbfKpi, rejectRateLineKpi } from '../testing/kpi-fixtures.js';
import { aliasValue, caseHolds, ResultCache } from './row-conditions.js';
import type { KpiDefinition, KpiKind, RowConditionOp } from './schema.js';

const HOUR = 3600 * 1_000_000;
const T0 = Date.parse('2026-01-05T06:00:00Z') * 1000;
const at = (minutes: number) => T0 + minutes * 60 * 1_000_000;

type Plant = Record<string, [number, Record<string, FieldValue>][]>;

function run(definition: KpiDefinition, plant: Plant, options: { kind?: KpiKind; machines?: string[]; bins?: number } = {}) {
  const records = (machine: string): HistoryRecord[] => (plant[machine] ?? []).map(([minute, fieldvalues]) => ({ timestamp: at(minute), fieldvalues }));
  return evaluateKpi({ definition, kind: options.kind ?? 'machine_type', machines: options.machines ?? Object.keys(plant), start: T0, end: T0 + (options.bins ?? 3) * HOUR, binSize: HOUR, records });
}

describe('evaluateKpi on recorded data', () => {
  const plant: Plant = {
    Press_1: [
      [0, { state: 'running', duration_s: 600 }],
      [10, { state: 'running', duration_s: 600 }],
      [20, { state: 'running', duration_s: 600 }],
      [30, { state: 'stopped', duration_s: 1200 }],
      [40, { temperature: 81 }],
      [50, { state: 'running', duration_s: 600 }],
      [120, { state: 'stopped', duration_s: 0 }],
      [180, { state: 'running', duration_s: 9999 }],
    ],
    Press_2: [[5, { state: 'running', duration_s: 3600 }]],
  };

  it('aggregates per bin, then applies the formula (availability by hand: 2400 / 3600)', () => {
    const [press1] = run(availabilityKpi(), plant, { machines: ['Press_1'] });
    expect(press1!.machine).toBe('Press_1');
    expect(press1!.bins).toHaveLength(3);
    const [first, second, third] = press1!.bins;
    expect(first).toEqual({
      start: '2026-01-05T06:00:00.000000Z',
      end: '2026-01-05T07:00:00.000000Z',
      value: expect.closeTo(66.6667, 3),
      status: 'neutral',
      dependencies: { up_time: 2400, all_time: 3600 },
      records: 5,
    });
    // An hour without records: missing data is null, not 0.
    expect(second).toMatchObject({ value: null, status: 'neutral', dependencies: { up_time: null, all_time: null }, records: 0 });
    // 0 / 0: division by zero is null; the record at the range end (09:00) is outside.
    expect(third).toMatchObject({ value: null, dependencies: { up_time: 0, all_time: 0 }, records: 1, end: '2026-01-05T09:00:00.000000Z' });
  });

  it('says why a machine has no value: no records, none with the mapped field, or no result of the formula', () => {
    const series = run(availabilityKpi(), { ...plant, Oven_2: [[5, { zone1_C: 180 }], [6, { zone1_C: 181 }]], Idle_3: [[4, { state: 'stopped', duration_s: 0 }]] }, { bins: 1, machines: ['Press_1', 'Oven_2', 'Idle_3', 'Ghost_9'] });
    expect(series.map((s) => [s.machine, s.reason])).toEqual([
      ['Press_1', null],
      ['Oven_2', '2 records from Oven_2 in this range, but none has a value for the field duration_s that this KPI maps.'],
      ['Idle_3', 'The formula gives no value for Idle_3 in this range: a division by zero, or a dependency without values.'],
      ['Ghost_9', 'No records from Ghost_9 in this range.'],
    ]);
    // With their codes (issue 57): the console writes them in German.
    expect(series.map((s) => [s.reason_code, s.reason_params])).toEqual([
      [undefined, undefined],
      ['kpi.records_without_field', { count: 2, names: 'Oven_2', fields: 'duration_s' }],
      ['kpi.formula_no_value', { who: 'Idle_3' }],
      ['kpi.no_records_in_range', { names: 'Ghost_9' }],
    ]);
  });

  it('keeps machines apart and gives good/bad from the thresholds', () => {
    const series = run(availabilityKpi(), plant, { bins: 1 });
    expect(series.map((s) => [s.machine, s.bins[0]!.value, s.bins[0]!.status])).toEqual([
      ['Press_1', expect.closeTo(66.6667, 3), 'neutral'],
      ['Press_2', 100, 'good'],
    ]);
  });

  it('averages with avg (MTBF) and uses min and max', () => {
    const mtbf = run(mtbfKpi(), { M: [[1, { stats__MTBF: 10 }], [2, { stats__MTBF: 20 }], [3, { stats__MTBF: 'n/a' }], [61, { stats__MTBF: 4 }]] }, { bins: 2 });
    expect(mtbf[0]!.bins.map((b) => [b.value, b.status])).toEqual([[15, 'good'], [4, 'bad']]);
    const spread: KpiDefinition = {
      name: 'spread',
      display_name: 'Spread',
      formula: 'hi - lo',
      dependencies: [{ name: 'hi', aggregate: 'max' }, { name: 'lo', aggregate: 'min' }],
      field_maps: [{ alias_map: { hi: { name: 'temp' }, lo: { name: 'temp' } } }],
    };
    expect(run(spread, { M: [[1, { temp: 70 }], [2, { temp: 92.5 }], [3, { temp: 81 }]] }, { bins: 1 })[0]!.bins[0]!.value).toBe(22.5);
  });

  it('evaluates a line KPI once for the line, from the machines its entries name', () => {
    const line = run(
      rejectRateLineKpi(),
      {
        Filler_1: [[1, { rejects: 2, bottles: 100 }], [2, { rejects: 1, bottles: 100 }]],
        Capper_1: [[3, { 'Reject Count': 3, caps: 200 }]],
        Labeler_1: [[4, { rejects: 50, bottles: 1 }]],
      },
      { kind: 'line', machines: ['Filler_1', 'Capper_1'], bins: 1 },
    );
    // (2 + 1 + 3) / (200 + 200) * 100 = 1.5, good for a negative KPI with good 2 / bad 5.
    expect(line.map((s) => [s.machine, s.bins[0]!.value, s.bins[0]!.status, s.field_map])).toEqual([
      ['Filler_1', 1.5, 'good', null],
      ['Capper_1', 1.5, 'good', null],
    ]);
    expect(line[0]!.bins[0]!.dependencies).toEqual({ rejects_filler: 3, rejects_capper: 3, throughput_filler: 200, throughput_capper: 200 });
    expect(line[0]!.bins[0]!.records).toBe(3);
  });

  it('picks, per machine, the field map its records fit', () => {
    const series = run(microStopsKpi(), { A: [[1, { micro_stop_s: 12, cycle_s: 60 }], [2, { micro_stop_s: 0, cycle_s: 60 }]], B: [[1, { stats__MicroStop__Duration: 50, record_time: 100 }]] }, { bins: 1 });
    expect(series.map((s) => [s.machine, s.field_map, s.bins[0]!.value, s.bins[0]!.status])).toEqual([
      ['A', 1, 10, 'good'],
      ['B', 0, 50, 'bad'],
    ]);
  });

  it('gives null when a dependency has no data at all', () => {
    const series = run(availabilityKpi(), { Empty: [[1, { other: 1 }]] }, { bins: 1 });
    expect(series[0]!.bins[0]).toMatchObject({ value: null, records: 0, dependencies: { up_time: null, all_time: null } });
  });
});

describe('row conditions per record', () => {
  const table: [RowConditionOp, FieldValue | undefined, unknown, boolean][] = [
    ['lt', 4, 5, true], ['lt', 5, 5, false], ['lte', 5, 5, true], ['gt', '7', 5, true], ['gte', null, 0, false],
    ['eq', 'running', 'running', true], ['eq', 3, 3, true], ['eq', '3', 3, true], ['ne', 'idle', 'running', true], ['ne', undefined, null, false],
    ['in', 'b', ['a', 'b'], true], ['in', 'c', ['a', 'b'], false], ['nin', 'c', ['a', 'b'], true],
    ['startswith', 'RUN_FAST', 'RUN', true], ['startswith', 'IDLE', 'RUN', false],
    ['not', 0, true, true], ['not', 'x', true, false], ['not', '', false, false],
    ['exists', 1, true, true], ['exists', undefined, true, false], ['exists', null, false, true],
    ['contains', 'motor error 12', 'error', true], ['contains', 'ok', 'error', false],
    ['like', 'run_fast', 'run%', true], ['like', 'runs', 'run_', true], ['like', 'Run', 'run%', false],
    ['notlike', 'stop', 'run%', true], ['notlike', 'running', 'run%', false],
    ['overlaps', 'a, b', ['b', 'c'], true], ['overlaps', '["x","y"]', ['y'], true], ['overlaps', 'a', ['b'], false],
  ];
  it.each(table)('%s: field %j vs %j → %s', (op, field, value, expected) => {
    expect(caseHolds(op, field, value)).toBe(expected);
  });

  it('computes then/else from literals, raw field names and column[...] expressions', () => {
    const cache = new ResultCache();
    const entry = {
      name: 'state',
      row_conditions: {
        cases: [
          { name: 'state', op: 'eq' as const, value: 'running', then: "column['Cycle Time'] / 60" },
          { name: 'state', op: 'eq' as const, value: 'setup', then: 'setup_s' },
        ],
        else: 0,
      },
    };
    expect(aliasValue(entry, { state: 'running', 'Cycle Time': 120 }, cache)).toBe(2);
    expect(aliasValue(entry, { state: 'setup', setup_s: 30 }, cache)).toBe(30);
    expect(aliasValue(entry, { state: 'idle' }, cache)).toBe(0);
    expect(aliasValue(entry, { other: 1 }, cache)).toBeUndefined();
    expect(aliasValue({ name: 'n', row_conditions: { cases: [{ name: 'n', op: 'gt', value: 5, then: 1 }] } }, { n: 3 }, cache)).toBe(3);
  });
});

describe('kpiStatus', () => {
  it('infers the direction from the thresholds when directionality is missing', () => {
    expect(kpiStatus(3, { good_threshold: 2, bad_threshold: 5 })).toBe('neutral');
    expect(kpiStatus(1, { good_threshold: 2, bad_threshold: 5 })).toBe('good');
    expect(kpiStatus(6, { good_threshold: 2, bad_threshold: 5 })).toBe('bad');
    expect(kpiStatus(90, { good_threshold: 80 })).toBe('good');
    expect(kpiStatus(null, { good_threshold: 80 })).toBe('neutral');
    expect(kpiStatus(50, {})).toBe('neutral');
  });
});
