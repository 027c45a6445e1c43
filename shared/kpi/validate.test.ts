import { describe, expect, it } from 'vitest';
import type { JsonPath } from '../config/violations.js';
import { availabilityKpi, microStopsKpi, mtbfKpi, oeeKpi, rejectRateLineKpi, rowConditionKpi } from '../testing/kpi-fixtures.js';
import { kpiJsonSchema, kindOf, ROW_CONDITION_OPS } from './schema.js';
import { KPI_TEMPLATES } from './templates.js';
import { validateKpi } from './validate.js';

type Doc = Record<string, any>;

describe('valid KPIs in the vendor style', () => {
  const valid: [string, unknown][] = [
    ['availability', availabilityKpi()],
    ['OEE with guarded division', oeeKpi()],
    ['MTBF with avg', mtbfKpi()],
    ['% micro stops, negative, two field maps', microStopsKpi()],
    ['line KPI across two machine types', rejectRateLineKpi()],
    ...KPI_TEMPLATES.map((t): [string, unknown] => [`template ${t.label}`, t.definition]),
  ];
  it.each(valid)('%s passes without violations', (_name, definition) => {
    const outcome = validateKpi(definition);
    expect(outcome.violations).toEqual([]);
    expect(outcome.status).toBe('passed');
    expect(outcome.definition).toEqual(definition);
  });

  it('takes raw field names with spaces as KPI names, and line entries without machine_type', () => {
    expect(validateKpi({ ...availabilityKpi(), name: 'Cycle Time %', display_name: 'Cycle time' }).violations).toEqual([]);
    const lineKpi = rejectRateLineKpi() as Doc;
    delete lineKpi.field_maps[0].alias_map.throughput_capper.machine_type;
    delete lineKpi.field_maps[0].alias_map.rejects_capper.machine_type;
    // machine is what the format asks of a line entry; without machine_type no listed type can be called unused.
    expect(validateKpi(lineKpi).violations).toEqual([]);
  });

  it('detects the kind as decisions.md says', () => {
    expect(kindOf(availabilityKpi())).toBe('machine_type');
    expect(kindOf(rejectRateLineKpi())).toBe('line');
    expect(kindOf(availabilityKpi(), 'line')).toBe('line');
    expect(validateKpi(rejectRateLineKpi()).kind).toBe('line');
  });

  const validValues: [string, unknown][] = [
    ['lt', 5], ['lte', 5.5], ['gt', -1], ['gte', 0], ['eq', 'running'], ['ne', null], ['in', ['a', 'b']], ['nin', [1, 2]],
    ['startswith', 'RUN'], ['not', true], ['exists', true], ['contains', 'err'], ['like', 'run%'], ['notlike', '%stop_'], ['overlaps', ['x', 'y']],
  ];
  it('covers every op of the spec', () => expect(validValues.map(([op]) => op).sort()).toEqual([...ROW_CONDITION_OPS].sort()));
  it.each(validValues)('row condition with op %s passes', (op, value) => {
    expect(validateKpi(rowConditionKpi(op, value)).violations).toEqual([]);
  });

  it.each([
    ['a raw field name', 'duration_s'],
    ["column['raw name'] with whitespace", "column['Cycle Time']"],
    ['_column[...]', '_column["Cycle Time"] / 60'],
    ['an expression', "speed * 2 if speed > 0 else None"],
    ['null', null],
    ['true', true],
  ])('then/else may be %s', (_what, then) => {
    expect(validateKpi(rowConditionKpi('eq', 'running', then, then)).violations).toEqual([]);
  });
});

interface Case {
  name: string;
  base?: () => Doc;
  change: (doc: Doc) => void;
  path: JsonPath;
  level?: 'error' | 'warning';
  says?: RegExp;
  kind?: 'line' | 'machine_type';
}

const line = () => rejectRateLineKpi() as Doc;
const rc = (op: string, value: unknown, then: unknown = 1) => () => rowConditionKpi(op, value, then) as Doc;
const casePath = (...rest: (string | number)[]): JsonPath => ['field_maps', 0, 'alias_map', 'hits', 'row_conditions', ...rest];

const cases: Case[] = [
  // structure
  { name: 'name missing', change: (d) => delete d.name, path: ['name'], says: /required/ },
  { name: 'display_name empty', change: (d) => (d.display_name = ''), path: ['display_name'], says: /must not be empty/ },
  { name: 'formula a number', change: (d) => (d.formula = 42), path: ['formula'], says: /must be text/ },
  { name: 'dependencies empty', change: (d) => (d.dependencies = []), path: ['dependencies'], says: /at least one dependency/ },
  { name: 'dependencies not a list', change: (d) => (d.dependencies = {}), path: ['dependencies'], says: /a list/ },
  { name: 'aggregate median', change: (d) => (d.dependencies[0].aggregate = 'median'), path: ['dependencies', 0, 'aggregate'], says: /"sum", "min", "max", "avg"/ },
  { name: 'aggregate misspelt gets a hint', change: (d) => (d.dependencies[1].aggregate = 'summ'), path: ['dependencies', 1, 'aggregate'], says: /Did you mean "sum"/ },
  { name: 'aggregate count (not allowed)', change: (d) => (d.dependencies[0].aggregate = 'count'), path: ['dependencies', 0, 'aggregate'] },
  { name: 'unknown top-level field with hint', change: (d) => (d.good_treshold = 3), path: ['good_treshold'], says: /Did you mean "good_threshold"/ },
  { name: 'directionality up', change: (d) => (d.directionality = 'up'), path: ['directionality'], says: /"positive", "negative"/ },
  { name: 'good_threshold as text', change: (d) => (d.good_threshold = '80'), path: ['good_threshold'], says: /a number/ },
  { name: 'field_maps missing', change: (d) => delete d.field_maps, path: ['field_maps'], says: /required/ },
  { name: 'field_maps empty', change: (d) => (d.field_maps = []), path: ['field_maps'], says: /at least one field map/ },
  { name: 'alias_map missing', change: (d) => delete d.field_maps[0].alias_map, path: ['field_maps', 0, 'alias_map'], says: /required/ },
  { name: 'alias entry without name', change: (d) => delete d.field_maps[0].alias_map.all_time.name, path: ['field_maps', 0, 'alias_map', 'all_time', 'name'], says: /required/ },
  { name: 'alias entry row_formula (not in the spec)', change: (d) => (d.field_maps[0].alias_map.all_time.row_formula = 'x'), path: ['field_maps', 0, 'alias_map', 'all_time', 'row_formula'], says: /row_formula is not part of the KPI format: .* row_conditions/ },
  { name: 'rollups.factory not lists', change: (d) => (d.rollups.factory.ETL3_sanfrancisco = 'Press_1'), path: ['rollups', 'factory', 'ETL3_sanfrancisco'], says: /a list/ },
  { name: 'dependency with extra field', change: (d) => (d.dependencies[0].aggregat = 'sum'), path: ['dependencies', 0, 'aggregat'], says: /Did you mean "aggregate"/ },
  // formula
  { name: 'formula syntax error with position', change: (d) => (d.formula = '(up_time/all_time*100'), path: ['formula'], says: /expected "\)".*at position 22/ },
  { name: 'formula unknown operator', change: (d) => (d.formula = 'up_time % all_time'), path: ['formula'], says: /"%" is not supported.* at position 9/ },
  { name: 'formula unknown function', change: (d) => (d.formula = 'sqrt(up_time) + all_time'), path: ['formula'], says: /"sqrt" is not a function.*position 1/ },
  { name: 'formula variable not a dependency', change: (d) => (d.formula = '(up_time/all_tim)*100'), path: ['formula'], says: /"all_tim" \(position 10\), which is not in dependencies. Did you mean "all_time"/ },
  { name: 'dependency not used (a warning)', change: (d) => d.dependencies.push({ name: 'spare', aggregate: 'sum' }) && (d.field_maps[0].alias_map.spare = { name: 'x' }), path: ['dependencies', 2, 'name'], level: 'warning', says: /"spare" is not used in the formula/ },
  { name: 'duplicate dependency', change: (d) => d.dependencies.push({ name: 'up_time', aggregate: 'avg' }), path: ['dependencies', 2, 'name'], says: /already declared at dependencies\[0\]/ },
  { name: 'dependency name not an identifier', change: (d) => (d.dependencies[0].name = 'up time'), path: ['dependencies', 0, 'name'], says: /usable in the formula/ },
  { name: 'dependency name a keyword', change: (d) => (d.dependencies[0].name = 'None'), path: ['dependencies', 0, 'name'], says: /word of the formula language/ },
  { name: 'formula error reported even when the structure is broken', change: (d) => { d.formula = 'up_time +'; d.unit = 5; }, path: ['formula'], says: /ends where a value is expected/ },
  // field maps
  { name: 'dependency not mapped', change: (d) => delete d.field_maps[0].alias_map.all_time, path: ['field_maps', 0, 'alias_map'], says: /does not map dependency "all_time"/ },
  { name: 'dependency not mapped in the second field map', base: () => microStopsKpi() as Doc, change: (d) => delete d.field_maps[1].alias_map.Record_Duration, path: ['field_maps', 1, 'alias_map'], says: /field_maps\[1\] does not map dependency "Record_Duration"/ },
  { name: 'alias_map maps a non-dependency', change: (d) => (d.field_maps[0].alias_map.uptime = { name: 'x' }), path: ['field_maps', 0, 'alias_map', 'uptime'], says: /not a dependency. Did you mean "up_time"/ },
  { name: 'machine_type on a machine-type KPI entry', change: (d) => (d.field_maps[0].alias_map.all_time.machine_type = 'Press'), path: ['field_maps', 0, 'alias_map', 'all_time', 'machine_type'], level: 'warning', says: /not used by machine-type KPIs/ },
  { name: 'machine_types forced as machine-type KPI', base: line, kind: 'machine_type', change: () => undefined, path: ['field_maps', 0, 'machine_types'], says: /belongs to line KPIs/ },
  // line KPIs
  { name: 'line entry without machine', base: line, change: (d) => delete d.field_maps[0].alias_map.rejects_filler.machine, path: ['field_maps', 0, 'alias_map', 'rejects_filler', 'machine'], says: /required/ },
  { name: 'line entry machine_type not listed', base: line, change: (d) => (d.field_maps[0].alias_map.throughput_capper.machine_type = 'Labeler'), path: ['field_maps', 0, 'alias_map', 'throughput_capper', 'machine_type'], says: /not in this field map's machine_types \(Filler, Capper\)/ },
  { name: 'line entry machine_type misspelt gets a hint', base: line, change: (d) => (d.field_maps[0].alias_map.throughput_capper.machine_type = 'Caper'), path: ['field_maps', 0, 'alias_map', 'throughput_capper', 'machine_type'], says: /Did you mean "Capper"/ },
  { name: 'line machine_types listed but unused', base: line, change: (d) => d.field_maps[0].machine_types.push('Labeler'), path: ['field_maps', 0, 'machine_types', 2], level: 'warning', says: /"Labeler" is listed/ },
  { name: 'line machine_types empty', base: line, kind: 'line', change: (d) => (d.field_maps[0].machine_types = []), path: ['field_maps', 0, 'machine_types'], says: /at least one machine type/ },
  { name: 'line KPI with rollups', base: line, change: (d) => (d.rollups = { line: {} }), path: ['rollups'], says: /Line KPIs have no rollups/ },
  { name: 'line forced on a machine-type document', kind: 'line', change: () => undefined, path: ['field_maps', 0, 'machine_types'], says: /required/ },
  // row conditions
  { name: 'op unknown', base: rc('between', 1), change: () => undefined, path: casePath('cases', 0, 'op'), says: /"lt", "lte"/ },
  { name: 'op misspelt', base: rc('startwith', 'a'), change: () => undefined, path: casePath('cases', 0, 'op'), says: /Did you mean "startswith"/ },
  { name: 'lt with text', base: rc('lt', '5'), change: () => undefined, path: casePath('cases', 0, 'value'), says: /Op "lt" compares numbers/ },
  { name: 'gte with a list', base: rc('gte', [1]), change: () => undefined, path: casePath('cases', 0, 'value'), says: /Op "gte" compares numbers/ },
  { name: 'eq with a list', base: rc('eq', [1, 2]), change: () => undefined, path: casePath('cases', 0, 'value'), says: /one value/ },
  { name: 'in with a scalar', base: rc('in', 'a'), change: () => undefined, path: casePath('cases', 0, 'value'), says: /non-empty list/ },
  { name: 'nin with an empty list', base: rc('nin', []), change: () => undefined, path: casePath('cases', 0, 'value'), says: /non-empty list/ },
  { name: 'overlaps with objects', base: rc('overlaps', [{}]), change: () => undefined, path: casePath('cases', 0, 'value'), says: /only numbers, text/ },
  { name: 'startswith with a number', base: rc('startswith', 5), change: () => undefined, path: casePath('cases', 0, 'value'), says: /matches text/ },
  { name: 'like with a number', base: rc('like', 5), change: () => undefined, path: casePath('cases', 0, 'value'), says: /pattern with % and _/ },
  { name: 'not with text', base: rc('not', 'yes'), change: () => undefined, path: casePath('cases', 0, 'value'), says: /true or false/ },
  { name: 'exists with a number', base: rc('exists', 1), change: () => undefined, path: casePath('cases', 0, 'value'), says: /true or false/ },
  { name: 'value missing', base: rc('contains', 'x'), change: (d) => delete d.field_maps[0].alias_map.hits.row_conditions.cases[0].value, path: casePath('cases', 0, 'value'), says: /required but missing/ },
  { name: 'then missing', base: rc('eq', 'x'), change: (d) => delete d.field_maps[0].alias_map.hits.row_conditions.cases[0].then, path: casePath('cases', 0, 'then'), says: /then is required/ },
  { name: 'then with a bare name holding whitespace', base: rc('eq', 'x', 'Cycle Time'), change: () => undefined, path: casePath('cases', 0, 'then'), says: /column\['Cycle Time'\]/ },
  { name: 'then with a broken expression', base: rc('eq', 'x', 'speed *'), change: () => undefined, path: casePath('cases', 0, 'then'), says: /cannot be read.*position 8/ },
  { name: 'then an object', base: rc('eq', 'x', { a: 1 }), change: () => undefined, path: casePath('cases', 0, 'then'), says: /not an object/ },
  { name: 'else with unclosed column[', base: rc('eq', 'x'), change: (d) => (d.field_maps[0].alias_map.hits.row_conditions.else = "column['a b'"), path: casePath('else'), says: /expected "\]"/ },
  { name: 'cases empty', base: rc('eq', 'x'), change: (d) => (d.field_maps[0].alias_map.hits.row_conditions.cases = []), path: casePath('cases'), says: /at least one case/ },
  { name: 'case without name', base: rc('eq', 'x'), change: (d) => delete d.field_maps[0].alias_map.hits.row_conditions.cases[0].name, path: casePath('cases', 0, 'name'), says: /required/ },
  // thresholds
  { name: 'positive with good below bad', change: (d) => { d.good_threshold = 60; d.bad_threshold = 80; }, path: ['good_threshold'], level: 'warning', says: /below bad_threshold 80, but directionality is positive/ },
  { name: 'negative with good above bad', base: () => microStopsKpi() as Doc, change: (d) => (d.good_threshold = 50), path: ['good_threshold'], level: 'warning', says: /above bad_threshold 40, but directionality is negative/ },
  { name: 'equal thresholds', change: (d) => (d.bad_threshold = 80), path: ['good_threshold'], level: 'warning', says: /both 80/ },
  // names
  { name: 'name with a line break', change: (d) => (d.name = 'my\nkpi'), path: ['name'], says: /raw field name/ },
  { name: 'name with a space at the end', change: (d) => (d.name = 'Cycle Time '), path: ['name'], says: /no spaces at the start or end/ },
  { name: 'name reserved by the API', change: (d) => (d.name = 'validate'), path: ['name'], says: /reserved/ },
];

describe('broken KPIs: each violation at its exact json_path', () => {
  it.each(cases)('$name', ({ base, change, path, level = 'error', says, kind }) => {
    const doc = (base ?? (() => availabilityKpi() as Doc))();
    change(doc);
    const { violations, status } = validateKpi(doc, { kind });
    const hit = violations.find((v) => JSON.stringify(v.json_path) === JSON.stringify(path) && v.level === level);
    expect(hit, `violations were ${JSON.stringify(violations, null, 1)}`).toBeDefined();
    if (says) expect(hit!.description).toMatch(says);
    expect(status).toBe(level === 'error' ? 'failed' : violations.some((v) => v.level === 'error') ? 'failed' : 'passed');
  });

  it('refuses what is not an object at the root', () => {
    for (const input of [null, [], 'kpi', 3]) expect(validateKpi(input).violations).toEqual([expect.objectContaining({ json_path: [], level: 'error' })]);
  });

  it('never throws on odd input', () => {
    const odd = [{}, { formula: {} }, { field_maps: [null] }, { field_maps: [{ alias_map: null }] }, { dependencies: [null], formula: 'a' }, { field_maps: [{ machine_types: 'x' }] }];
    for (const input of odd) expect(validateKpi(input).status).toBe('failed');
  });
});

describe('unique names in the library', () => {
  const library = [
    { name: 'availability', display_name: 'Availability' },
    { name: 'oee', display_name: 'OEE' },
  ];

  it('refuses renaming onto another KPI of the library', () => {
    const doc = { ...availabilityKpi(), name: 'oee', display_name: 'OEE 2' };
    const { violations } = validateKpi(doc, { library, original: 'availability' });
    expect(violations).toContainEqual(expect.objectContaining({ json_path: ['name'], level: 'error', description: expect.stringMatching(/already used by another KPI/) }));
  });

  it('lets the KPI being edited keep its name, and warns about a shared display_name', () => {
    expect(validateKpi(availabilityKpi(), { library, original: 'availability' }).violations).toEqual([]);
    const { violations } = validateKpi({ ...availabilityKpi(), display_name: 'OEE' }, { library, original: 'availability' });
    expect(violations).toEqual([expect.objectContaining({ json_path: ['display_name'], level: 'warning' })]);
  });

  it('warns that a save without an original replaces the stored KPI', () => {
    const { violations, status } = validateKpi(availabilityKpi(), { library });
    expect(status).toBe('passed');
    expect(violations).toEqual([expect.objectContaining({ json_path: ['name'], level: 'warning', description: expect.stringMatching(/saving replaces it/) })]);
  });
});

describe('kpiJsonSchema', () => {
  it('describes both kinds for the editor', () => {
    const schema = kpiJsonSchema();
    const text = JSON.stringify(schema);
    expect(schema.anyOf).toHaveLength(2);
    for (const word of ['display_name', 'field_maps', 'alias_map', 'row_conditions', 'machine_types', 'directionality', 'startswith']) expect(text).toContain(word);
  });
});

describe('all problems in one pass', () => {
  it('reports a misspelt key together with a wrong machine_type elsewhere', () => {
    const doc = structuredClone(line()) as Doc;
    (doc as any).display_nam = 'x';
    doc.field_maps[0].alias_map.throughput_capper.machine_type = 'Caper';
    const found = validateKpi(doc).violations.map((v) => [v.json_path.join('.'), v.description]);
    expect(found.find(([p]) => p === 'display_nam')?.[1]).toMatch(/Did you mean "display_name"/);
    const typo = found.find(([p]) => p === 'field_maps.0.alias_map.throughput_capper.machine_type');
    expect(typo?.[1]).toMatch(/Did you mean "Capper"/);
  });
});
