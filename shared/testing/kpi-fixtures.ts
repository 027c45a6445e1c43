/**
 * KPI definitions in the vendor's published style, for tests and documentation examples.
 */
import type { LineKpi, MachineTypeKpi } from '../kpi/schema.js';

export function availabilityKpi(): MachineTypeKpi {
  return {
    name: 'availability',
    display_name: 'Availability',
    unit: '%',
    formula: '(up_time/all_time)*100',
    dependencies: [
      { name: 'up_time', aggregate: 'sum' },
      { name: 'all_time', aggregate: 'sum' },
    ],
    field_maps: [
      {
        alias_map: {
          up_time: { name: 'duration_s', row_conditions: { cases: [{ name: 'state', op: 'eq', value: 'running', then: 'duration_s' }], else: 0 } },
          all_time: { name: 'duration_s' },
        },
      },
    ],
    rollups: { line: {}, factory: { ETL3_sanfrancisco: ['Press_1', 'Press_2'] } },
    good_threshold: 80,
    bad_threshold: 60,
    directionality: 'positive',
  };
}

export function oeeKpi(): MachineTypeKpi {
  const names = ['good', 'reject', 'speed', 'max_speed', 'availability', 'denominator'];
  return {
    name: 'oee',
    display_name: 'OEE',
    unit: '%',
    formula: '(good/(good+reject)) * (speed/max_speed) * (availability/denominator) * 100 if (good+reject) > 0 and max_speed > 0 and denominator > 0 else None',
    dependencies: names.map((name) => ({ name, aggregate: 'sum' as const })),
    field_maps: [{ alias_map: Object.fromEntries(names.map((name) => [name, { name: `stats__${name}` }])) }],
    good_threshold: 85,
    bad_threshold: 60,
    directionality: 'positive',
  };
}

export function mtbfKpi(): MachineTypeKpi {
  return {
    name: 'mtbf',
    display_name: 'MTBF',
    unit: 'minutes',
    formula: 'MTBF',
    dependencies: [{ name: 'MTBF', aggregate: 'avg' }],
    field_maps: [{ alias_map: { MTBF: { name: 'stats__MTBF' } } }],
    good_threshold: 10,
    bad_threshold: 5,
    directionality: 'positive',
  };
}

export function microStopsKpi(): MachineTypeKpi {
  return {
    name: 'micro_stops',
    display_name: '% Micro Stops',
    unit: '%',
    formula: '((Duration_Rejects/Record_Duration)*100) if (Record_Duration > 0) else None',
    dependencies: [
      { name: 'Duration_Rejects', aggregate: 'sum' },
      { name: 'Record_Duration', aggregate: 'sum' },
    ],
    field_maps: [
      { alias_map: { Duration_Rejects: { name: 'stats__MicroStop__Duration' }, Record_Duration: { name: 'record_time' } } },
      { alias_map: { Duration_Rejects: { name: 'micro_stop_s' }, Record_Duration: { name: 'cycle_s' } } },
    ],
    good_threshold: 20,
    bad_threshold: 40,
    directionality: 'negative',
  };
}

/** A line KPI across two machine types: rejects of filler and capper over their throughput. */
export function rejectRateLineKpi(): LineKpi {
  return {
    name: 'line_reject_rate',
    display_name: 'Line reject rate',
    unit: '%',
    formula: '((rejects_filler + rejects_capper) / (throughput_filler + throughput_capper)) * 100 if (throughput_filler + throughput_capper) > 0 else None',
    dependencies: [
      { name: 'rejects_filler', aggregate: 'sum' },
      { name: 'rejects_capper', aggregate: 'sum' },
      { name: 'throughput_filler', aggregate: 'sum' },
      { name: 'throughput_capper', aggregate: 'sum' },
    ],
    field_maps: [
      {
        machine_types: ['Filler', 'Capper'],
        alias_map: {
          rejects_filler: { name: 'rejects', machine: 'Filler_1', machine_type: 'Filler' },
          rejects_capper: { name: 'Reject Count', machine: 'Capper_1', machine_type: 'Capper' },
          throughput_filler: { name: 'bottles', machine: 'Filler_1', machine_type: 'Filler' },
          throughput_capper: { name: 'caps', machine: 'Capper_1', machine_type: 'Capper' },
        },
      },
    ],
    good_threshold: 2,
    bad_threshold: 5,
    directionality: 'negative',
  };
}

/** A machine-type KPI whose dependency is computed by a row condition of the given op. */
export function rowConditionKpi(op: string, value: unknown, then: unknown = 1, otherwise: unknown = 0): MachineTypeKpi {
  return {
    name: `rc_${op}`,
    display_name: `Row condition ${op}`,
    formula: 'hits',
    dependencies: [{ name: 'hits', aggregate: 'sum' }],
    field_maps: [
      {
        alias_map: {
          hits: { name: 'state', row_conditions: { cases: [{ name: 'state', op, value, then }], else: otherwise } as never },
        },
      },
    ],
  };
}
