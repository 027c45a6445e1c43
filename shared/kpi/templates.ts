/**
 * Starting points for the two kinds of KPI, in the style of the product's published examples
 * (guarded division, row conditions). Field names fit the demo plant (`--demo`): Press_1 writes
 * part_id, cycle_time_s and ok; Oven_2 writes belt_speed_mpm; both write a row a second.
 */
import type { KpiKind, LineKpi, MachineTypeKpi } from './schema.js';

export interface KpiTemplate {
  kind: KpiKind;
  label: string;
  description: string;
  definition: MachineTypeKpi | LineKpi;
}

const machineType: MachineTypeKpi = {
  name: 'good_part_rate',
  display_name: 'Good part rate',
  unit: '%',
  formula: '(good / parts) * 100 if parts > 0 else None',
  dependencies: [
    { name: 'good', aggregate: 'sum' },
    { name: 'parts', aggregate: 'sum' },
  ],
  field_maps: [
    {
      alias_map: {
        good: { name: 'ok' },
        parts: { name: 'part_id', row_conditions: { cases: [{ name: 'part_id', op: 'exists', value: true, then: 1 }], else: 0 } },
      },
    },
  ],
  directionality: 'positive',
  good_threshold: 97,
  bad_threshold: 90,
};

const line: LineKpi = {
  name: 'parts_per_belt_metre',
  display_name: 'Parts per belt metre',
  unit: 'parts/m',
  formula: 'parts / (belt_speed * seconds / 60) if belt_speed > 0 and seconds > 0 else None',
  dependencies: [
    { name: 'parts', aggregate: 'sum' },
    { name: 'belt_speed', aggregate: 'avg' },
    { name: 'seconds', aggregate: 'sum' },
  ],
  field_maps: [
    {
      machine_types: ['Press', 'Oven'],
      alias_map: {
        parts: { name: 'part_id', machine: 'Press_1', machine_type: 'Press', row_conditions: { cases: [{ name: 'part_id', op: 'exists', value: true, then: 1 }], else: 0 } },
        belt_speed: { name: 'belt_speed_mpm', machine: 'Oven_2', machine_type: 'Oven' },
        seconds: { name: 'belt_speed_mpm', machine: 'Oven_2', machine_type: 'Oven', row_conditions: { cases: [{ name: 'belt_speed_mpm', op: 'gt', value: 0, then: 1 }], else: 0 } },
      },
    },
  ],
  directionality: 'positive',
  good_threshold: 20,
  bad_threshold: 10,
};

export const KPI_TEMPLATES: readonly KpiTemplate[] = [
  { kind: 'machine_type', label: 'Machine-type KPI', description: 'Good parts per part made, per machine.', definition: machineType },
  { kind: 'line', label: 'Line KPI', description: 'Parts of the press per metre of oven belt, for the whole line.', definition: line },
];

export function kpiTemplate(kind: KpiKind): KpiTemplate {
  return structuredClone(KPI_TEMPLATES.find((template) => template.kind === kind)!);
}
