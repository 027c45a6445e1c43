/**
 * The rules a schema cannot express: the formula and its references, dependencies mapped in every
 * field map, line-KPI rules, row conditions, thresholds against directionality, unique names.
 * Each violation points at the exact json_path of the value to change.
 */
import { closest, error, warning, type JsonPath, type Violation, say } from '../config/violations.js';
import { FUNCTIONS, KEYWORDS } from './formula-ast.js';
import { describeFormulaError, parseFormula } from './formula-parser.js';
import type { KnownKpiData } from './known-names.js';
import { parseResultExpression, VALUE_OPTIONAL, valueProblem } from './row-conditions.js';
import type { AliasEntry, KpiDefinition, KpiKind, LineKpi, RowConditions } from './schema.js';

/** A KPI already in the library, for the uniqueness rules. */
export interface LibraryEntryName {
  name: string;
  display_name: string;
}

export interface RuleContext {
  library?: readonly LibraryEntryName[];
  /** The library name of the KPI being edited (it may keep its own name). */
  original?: string;
  /** Machines and fields of the records the agent keeps (did-you-mean on machine and field names). */
  known?: KnownKpiData;
}

/** Names that would collide with the API's own paths under /v1/kpis/. */
export const RESERVED_KPI_NAMES = ['validate', 'evaluate'];
/** A raw field name: any text without control characters and without surrounding whitespace, up to 100 characters. */
const KPI_NAME = /^(?!\s)[^\u0000-\u001f\u007f]{1,100}(?<!\s)$/u;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function nameRules(definition: { name: string; display_name: string }, context: RuleContext): Violation[] {
  const out: Violation[] = [];
  const { name } = definition;
  if (!KPI_NAME.test(name)) out.push(error(['name'], say('kpi.name_must_raw_field', 'name "{name}" must be a raw field name: at most 100 characters, no line breaks or other control characters, no spaces at the start or end.', { name })));
  else if (RESERVED_KPI_NAMES.includes(name)) out.push(error(['name'], say('kpi.name_reserved_api_kpis', 'name "{name}" is reserved by the API (/v1/kpis/{name}); choose another name.', { name })));
  const others = (context.library ?? []).filter((entry) => entry.name !== context.original);
  if (context.original !== undefined && name !== context.original && others.some((entry) => entry.name === name))
    out.push(error(['name'], say('kpi.name_already_used_another', 'name "{name}" is already used by another KPI in the library; KPI names must be unique.', { name })));
  else if (context.original === undefined && others.some((entry) => entry.name === name))
    out.push(warning(['name'], say('kpi.kpi_named_already_library', 'A KPI named "{name}" is already in the library: saving replaces it.', { name })));
  const sameDisplay = others.find((entry) => entry.name !== name && entry.display_name === definition.display_name);
  if (sameDisplay) out.push(warning(['display_name'], say('kpi.display_name_also_shown_kpi', 'display_name "{display_name}" is also shown for the KPI "{name}"; it should be unique.', { display_name: definition.display_name, name: sameDisplay.name })));
  return out;
}

/** Formula syntax, and every formula variable a dependency and every dependency used. */
export function formulaRules(formula: string, dependencies: readonly { name: string }[] | undefined): Violation[] {
  const parsed = parseFormula(formula);
  if (!parsed.ok) return [error(['formula'], say('kpi.formula_cannot_read', 'The formula cannot be read: {describeFormulaError}.', { describeFormulaError: describeFormulaError(parsed.error) }))];
  if (!dependencies) return [];
  const out: Violation[] = [];
  const declared = dependencies.map((d) => d.name);
  const reported = new Set<string>();
  for (const reference of parsed.names) {
    if (declared.includes(reference.name) || reported.has(reference.name)) continue;
    reported.add(reference.name);
    const hint = closest(reference.name, declared);
    out.push(error(['formula'], hint ? say('kpi.formula_name_not_dependency_hint', 'The formula uses "{name}" (position {offset}), which is not in dependencies. Did you mean "{hint}"?', { name: reference.name, offset: reference.offset + 1, hint }) : say('kpi.formula_name_not_dependency', 'The formula uses "{name}" (position {offset}), which is not in dependencies. Add it to dependencies or remove it from the formula.', { name: reference.name, offset: reference.offset + 1 })));
  }
  const used = new Set(parsed.names.map((reference) => reference.name));
  dependencies.forEach((dependency, i) => {
    if (IDENTIFIER.test(dependency.name) && !isReservedWord(dependency.name) && !used.has(dependency.name))
      out.push(warning(['dependencies', i, 'name'], say('kpi.dependency_used_formula_aggregated', 'Dependency "{name}" is not used in the formula: it is aggregated but changes nothing. Remove it or use it.', { name: dependency.name })));
  });
  return out;
}

function isReservedWord(name: string): boolean {
  return (KEYWORDS as readonly string[]).includes(name) || (FUNCTIONS as readonly string[]).includes(name);
}

export function dependencyRules(dependencies: readonly { name: string }[]): Violation[] {
  const out: Violation[] = [];
  const seen = new Map<string, number>();
  dependencies.forEach((dependency, i) => {
    const path: JsonPath = ['dependencies', i, 'name'];
    if (!IDENTIFIER.test(dependency.name)) out.push(error(path, say('kpi.dependency_name_must_usable', 'Dependency name "{name}" must be usable in the formula: letters, digits and _, not starting with a digit.', { name: dependency.name })));
    else if (isReservedWord(dependency.name)) out.push(error(path, say('kpi.word_formula_language_cannot', '"{name}" is a word of the formula language and cannot be a dependency name.', { name: dependency.name })));
    const first = seen.get(dependency.name);
    if (first !== undefined) out.push(error(path, say('kpi.dependency_already_declared_dependencies', 'Dependency "{name}" is already declared at dependencies[{first}].', { name: dependency.name, first })));
    else seen.set(dependency.name, i);
  });
  return out;
}

function rowConditionRules(conditions: RowConditions, path: JsonPath): Violation[] {
  const out: Violation[] = [];
  conditions.cases.forEach((rowCase, k) => {
    const at: JsonPath = [...path, 'cases', k];
    if (rowCase.value === undefined) {
      if (!VALUE_OPTIONAL.includes(rowCase.op)) out.push(error([...at, 'value'], say('kpi.value_required_missing', 'value is required but missing: {valueProblem}.', { valueProblem: valueProblem(rowCase.op, undefined) ?? '' })));
    } else {
      const problem = valueProblem(rowCase.op, rowCase.value);
      if (problem) out.push(error([...at, 'value'], say('kpi.row_value_invalid', '{text}.', { text: capitalize(problem) })));
    }
    if (!('then' in rowCase) || rowCase.then === undefined) out.push(error([...at, 'then'], say('kpi.then_required_missing_value', 'then is required but missing: the value when the condition holds.')));
    else out.push(...resultRules(rowCase.then, [...at, 'then']));
  });
  if ('else' in conditions && conditions.else !== undefined) out.push(...resultRules(conditions.else, [...path, 'else']));
  return out;
}

/** `then` / `else`: a literal, a raw field name or an expression. */
function resultRules(result: unknown, path: JsonPath): Violation[] {
  const label = String(path[path.length - 1]);
  if (result === null || typeof result === 'number' || typeof result === 'boolean') return [];
  if (typeof result !== 'string') return [error(path, say('kpi.result_wrong_type', '{label} must be a number, true/false, null, a raw field name or an expression, not {actual}.', { label, actual: Array.isArray(result) ? 'a list' : 'an object', shown: Array.isArray(result) ? '[…]' : '{…}' }))];
  if (result.trim() === '') return [error(path, say('kpi.must_empty_text', '{label} must not be empty text.', { label }))];
  const parsed = parseResultExpression(result);
  if (parsed.ok) return [];
  const spaced = /^\s*[A-Za-z_][\w ]*[A-Za-z0-9_]\s*$/.test(result) && /\s/.test(result.trim());
  if (spaced) return [error(path, say('kpi.raw_field_name_whitespace', '{label} "{result}": a raw field name with whitespace must be written column[\'{result2}\'].', { label, result, result2: result.trim() }))];
  return [error(path, say('kpi.cannot_read', '{label} cannot be read: {describeFormulaError}.', { label, describeFormulaError: describeFormulaError(parsed.error) }))];
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every dependency mapped in every field map, nothing else mapped, alias entries per kind. */
export function fieldMapRules(definition: KpiDefinition, kind: KpiKind): Violation[] {
  const out: Violation[] = [];
  const declared = definition.dependencies.map((d) => d.name);
  definition.field_maps.forEach((fieldMap, j) => {
    const base: JsonPath = ['field_maps', j];
    const aliasMap = fieldMap.alias_map as Record<string, AliasEntry>;
    for (const dependency of declared)
      if (!Object.hasOwn(aliasMap, dependency)) out.push(error([...base, 'alias_map'], say('kpi.field_maps_does_map_dependency', 'field_maps[{j}] does not map dependency "{dependency}": add "{dependency}": {"name": "<raw field name>"} to its alias_map.', { j, dependency })));
    const machineTypes = fieldMap.machine_types;
    if (kind === 'machine_type' && machineTypes !== undefined)
      out.push(error([...base, 'machine_types'], say('kpi.machine_types_belongs_line_kpis', 'machine_types belongs to line KPIs; remove it, or validate this definition as a line KPI (?kind=line).')));
    const usedTypes = new Set<string>();
    for (const [key, entry] of Object.entries(aliasMap)) {
      const at: JsonPath = [...base, 'alias_map', key];
      if (!declared.includes(key)) {
        const hint = closest(key, declared);
        out.push(error(at, hint ? say('kpi.alias_not_dependency_hint', 'alias_map maps "{key}", which is not a dependency. Did you mean "{hint}"?', { key, hint }) : say('kpi.alias_not_dependency', 'alias_map maps "{key}", which is not a dependency.', { key })));
      }
      if (kind === 'machine_type' && entry.machine_type !== undefined)
        out.push(warning([...at, 'machine_type'], say('kpi.machine_type_used_machine_type', 'machine_type is not used by machine-type KPIs (only line KPIs name the machine type of each entry); it is ignored.')));
      if (kind === 'line' && entry.machine_type !== undefined && machineTypes) {
        usedTypes.add(entry.machine_type);
        if (!machineTypes.includes(entry.machine_type)) {
          const typo = closest(entry.machine_type, machineTypes);
          const [machine_type, listed] = [entry.machine_type, machineTypes.join(', ')];
          out.push(
            error(
              [...at, 'machine_type'],
              typo
                ? say('kpi.machine_type_not_listed_hint', 'machine_type "{machine_type}" is not in this field map\'s machine_types ({listed}). Did you mean "{hint}"?', { machine_type, listed, hint: typo })
                : say('kpi.machine_type_not_listed', 'machine_type "{machine_type}" is not in this field map\'s machine_types ({listed}).', { machine_type, listed }),
            ),
          );
        }
      }
      if (entry.row_conditions) out.push(...rowConditionRules(entry.row_conditions, [...at, 'row_conditions']));
    }
    // Only when every entry names its machine type can a listed type be known to be unused.
    if (kind === 'line' && machineTypes && Object.values(aliasMap).every((entry) => entry.machine_type !== undefined))
      machineTypes.forEach((type, m) => {
        if (!usedTypes.has(type)) out.push(warning([...base, 'machine_types', m], say('kpi.machine_type_listed_alias', 'Machine type "{type}" is listed but no alias entry of this field map uses it.', { type })));
      });
  });
  return out;
}

export function lineRules(definition: LineKpi): Violation[] {
  return definition.rollups !== undefined ? [error(['rollups'], say('kpi.line_kpis_rollups_rollups', 'Line KPIs have no rollups (rollups are for machine-type KPIs on the homepage); remove it.'))] : [];
}

/** good/bad thresholds must lie the way directionality says (a warning: the KPI still computes). */
export function thresholdRules(definition: KpiDefinition): Violation[] {
  const { good_threshold: good, bad_threshold: bad, directionality } = definition;
  if (good === undefined || bad === undefined) return [];
  if (good === bad) return [warning(['good_threshold'], say('kpi.good_threshold_bad_threshold_both_value', 'good_threshold and bad_threshold are both {good}: a value cannot be told good or bad.', { good }))];
  if (directionality === 'positive' && good < bad)
    return [warning(['good_threshold'], say('kpi.good_threshold_below_bad_threshold_directionality', 'good_threshold {good} is below bad_threshold {bad}, but directionality is positive (higher is better): swap them, or set directionality to negative.', { good, bad }))];
  if (directionality === 'negative' && good > bad)
    return [warning(['good_threshold'], say('kpi.good_threshold_above_bad_threshold_directionality', 'good_threshold {good} is above bad_threshold {bad}, but directionality is negative (lower is better): swap them, or set directionality to positive.', { good, bad }))];
  return [];
}
