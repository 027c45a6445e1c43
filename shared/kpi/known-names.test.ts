import { describe, expect, it } from 'vitest';
import { availabilityKpi, rejectRateLineKpi } from '../testing/kpi-fixtures.js';
import { validateKpi } from './validate.js';

const known = {
  machines: {
    Filler_1: ['rejects', 'bottles'],
    Capper_1: ['Reject Count', 'caps'],
    Press_1: ['duration_s', 'state'],
    Press_2: ['duration_s', 'state'],
  },
};

const at = (outcome: ReturnType<typeof validateKpi>, path: string) => outcome.violations.filter((v) => v.json_path.join('.') === path);

describe('KPI machine and field names against the records the agent keeps', () => {
  it('says nothing when the names are those of the kept records, or when nothing is kept', () => {
    expect(validateKpi(rejectRateLineKpi(), { known }).violations).toEqual([]);
    expect(validateKpi(availabilityKpi(), { known }).violations).toEqual([]);
    const misspelt = rejectRateLineKpi();
    misspelt.field_maps[0]!.alias_map.rejects_filler!.machine = 'Filer_1';
    expect(validateKpi(misspelt, { known: { machines: {} } }).violations).toEqual([]);
    expect(validateKpi(misspelt).violations).toEqual([]);
  });

  it('names a misspelt machine and a misspelt field with did-you-mean, as warnings', () => {
    const kpi = rejectRateLineKpi();
    kpi.field_maps[0]!.alias_map.rejects_filler!.machine = 'Filer_1';
    kpi.field_maps[0]!.alias_map.throughput_capper!.name = 'cap';
    const outcome = validateKpi(kpi, { known });
    expect(outcome.status).toBe('passed');
    expect(at(outcome, 'field_maps.0.alias_map.rejects_filler.machine')).toEqual([
      expect.objectContaining({ json_path: expect.any(Array), level: 'warning', description: expect.stringMatching(/No records of machine "Filer_1" .* Did you mean "Filler_1"\?/) }),
    ]);
    // A known machine: its own fields are the candidates ("caps" of Capper_1, not another machine's).
    expect(at(outcome, 'field_maps.0.alias_map.throughput_capper.name')[0]!.description).toMatch(/of machine "Capper_1" .* field "cap".* Did you mean "caps"\?/);
  });

  it('checks row condition fields and rollup machines; without a close name it lists what is there', () => {
    const kpi = availabilityKpi();
    kpi.field_maps[0]!.alias_map.up_time!.row_conditions!.cases[0]!.name = 'stat';
    kpi.rollups = { factory: { plant: ['Press_1', 'Drill_9'] } };
    const outcome = validateKpi(kpi, { known });
    expect(at(outcome, 'field_maps.0.alias_map.up_time.row_conditions.cases.0.name')[0]!.description).toMatch(/field "stat".* Did you mean "state"\?/);
    expect(at(outcome, 'rollups.factory.plant.1')[0]!.description).toMatch(/"Drill_9" .* Machines with records here: Capper_1, Filler_1, Press_1, Press_2\./);
    expect(at(outcome, 'rollups.factory.plant.0')).toEqual([]);
  });

  it('reports them in the same pass as a misspelt key and a formula error', () => {
    const kpi = { ...rejectRateLineKpi(), unitt: '%' } as Record<string, unknown>;
    (kpi as ReturnType<typeof rejectRateLineKpi>).field_maps[0]!.alias_map.rejects_filler!.machine = 'Filer_1';
    const outcome = validateKpi(kpi, { known });
    expect(outcome.violations.map((v) => [v.json_path.join('.'), v.level])).toEqual(
      expect.arrayContaining([
        ['unitt', 'error'],
        ['field_maps.0.alias_map.rejects_filler.machine', 'warning'],
      ]),
    );
  });
});
