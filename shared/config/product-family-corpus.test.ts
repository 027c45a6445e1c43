import { describe, expect, it } from 'vitest';
import { availabilityKpi, microStopsKpi, mtbfKpi, oeeKpi } from '../testing/kpi-fixtures.js';
import { validateKpi } from '../kpi/validate.js';
import { NOTES_EXAMPLES, OWN_EXAMPLES, REFUSED_EXAMPLES } from '../testing/product-family-examples.js';
import { validateConfiguration } from './validate.js';

describe('configurations written the product family\'s way', () => {
  it.each([...NOTES_EXAMPLES, ...OWN_EXAMPLES].map((example) => [example.name, example] as const))('%s: valid, with only the expected warnings', (_name, example) => {
    const { violations, config } = validateConfiguration(example.document);
    expect(violations.filter((v) => v.level === 'error'), JSON.stringify(violations, null, 1)).toEqual([]);
    expect(violations.map((v) => v.json_path).sort()).toEqual([...example.warnings].sort());
    expect(config).toBeDefined();
  });

  it.each(REFUSED_EXAMPLES.map((example) => [example.name, example] as const))('%s: refused, saying Tributary cannot do it', (_name, example) => {
    const hit = validateConfiguration(example.document).violations.find((v) => JSON.stringify(v.json_path) === JSON.stringify(example.path));
    expect(hit).toMatchObject({ level: 'error', description: expect.stringMatching(example.says) });
  });
});

describe('unknown fields stay errors, with "did you mean"', () => {
  const base = () => structuredClone(OWN_EXAMPLES[0]!.document) as any;
  it.each([
    ['a top-level key', (d: any) => (d.sight_machine_clod = {}), ['sight_machine_clod'], 'sight_machine_cloud'],
    ['a receiver option', (d: any) => (d.data_receiver[0].process_files_alphabeticaly = true), ['data_receiver', 0, 'process_files_alphabeticaly'], 'process_files_alphabetically'],
    ['a stream filter', (d: any) => (d.data_receiver[0].streams[0].file_filters = ['*.csv']), ['data_receiver', 0, 'streams', 0, 'file_filters'], 'file_filter'],
    ['a parser field', (d: any) => (d.data_receiver[0].parsers[0].file_encodng = 'cp1252'), ['data_receiver', 0, 'parsers', 0, 'file_encodng'], 'file_encoding'],
    ['a read_csv keyword', (d: any) => (d.data_receiver[0].parsers[0].options.parse.skipfooters = 1), ['data_receiver', 0, 'parsers', 0, 'options', 'parse', 'skipfooters'], 'skipfooter'],
    ['a transmit field', (d: any) => (d.data_transmit[0].max_request_size_byte = 100000), ['data_transmit', 0, 'max_request_size_byte'], 'max_request_size_bytes'],
    ['a cloud field', (d: any) => (d.sight_machine_cloud.apikey = 'x'), ['sight_machine_cloud', 'apikey'], 'api_key'],
  ])('%s', (_what, change, path, hint) => {
    const doc = base();
    change(doc);
    const hit = validateConfiguration(doc).violations.find((v) => JSON.stringify(v.json_path) === JSON.stringify(path));
    expect(hit).toMatchObject({ level: 'error', description: expect.stringContaining(`Did you mean "${hint}"?`) });
  });

  it('an OPC UA tag field', () => {
    const doc = structuredClone(NOTES_EXAMPLES[1]!.document) as any;
    doc.data_receiver[0].streams[0].opcua_tags[0].namespaceindex = 5;
    expect(validateConfiguration(doc).violations).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'streams', 0, 'opcua_tags', 0, 'namespaceindex'], level: 'error', description: expect.stringContaining('Did you mean "namespace_index"?') }));
  });
});

describe('KPIs of the notes (§5.5)', () => {
  const kpi = (name: string, formula: string, dependencies: [string, 'sum' | 'avg'][]) => ({
    name,
    display_name: name,
    formula,
    dependencies: dependencies.map(([dependency, aggregate]) => ({ name: dependency, aggregate })),
    field_maps: [{ alias_map: Object.fromEntries(dependencies.map(([dependency]) => [dependency, { name: `stats__${dependency}` }])) }],
  });

  it.each([
    ['Ideal cycle %', kpi('Ideal cycle %', '( IdealCycle / Recorded_time ) * 100 if ( Recorded_time > 0 ) else None', [['Recorded_time', 'sum'], ['IdealCycle', 'sum']])],
    ['Line Efficiency', kpi('Line Efficiency', '(prod/target)*100', [['prod', 'sum'], ['target', 'sum']])],
    ['Availability', availabilityKpi()],
    ['MTBF', mtbfKpi()],
    ['% Micro Stops', microStopsKpi()],
    ['OEE', oeeKpi()],
  ])('%s is a valid KPI', (_name, definition) => {
    expect(validateKpi(definition).violations).toEqual([]);
  });

  it('the assembled SDK document: only its row_formula is refused, with the format\'s way to write it', () => {
    const sdk = {
      name: 'availability', display_name: 'Availability', unit: '%', formula: '(up_time/all_time)*100',
      dependencies: [{ name: 'up_time', aggregate: 'sum' }, { name: 'all_time', aggregate: 'sum' }],
      field_maps: [{ alias_map: { up_time: { row_formula: 'if …' }, all_time: { name: 'stats__…' } } }],
      rollups: { line: {}, factory: { ETL3_sanfrancisco: ['…machine names…'] } },
      good_threshold: 80, bad_threshold: 60, directionality: 'positive',
    };
    const { violations } = validateKpi(sdk);
    expect(violations.map((v) => v.json_path)).toEqual([['field_maps', 0, 'alias_map', 'up_time', 'name'], ['field_maps', 0, 'alias_map', 'up_time', 'row_formula']]);
    expect(violations[1]!.description).toMatch(/row_conditions/);
    const written = structuredClone(sdk) as any;
    written.field_maps[0].alias_map.up_time = { name: 'state', row_conditions: { cases: [{ name: 'state', op: 'eq', value: 'running', then: 'stats__duration' }], else: 0 } };
    expect(validateKpi(written).violations).toEqual([]);
  });
});
