/**
 * Validation of a KPI definition: the schema of its kind (structure), then the rules. Pure: the
 * same function runs in the agent (on save and on /v1/kpis/validate) and could run in the console.
 */
import type { z } from 'zod';
import { dedupeViolations, error, hasErrors, sortViolations, violationsFromIssues, type JsonPath, type Violation, say } from '../config/violations.js';
import { knownNameRules } from './known-names.js';
import { dependencyRules, fieldMapRules, formulaRules, lineRules, nameRules, thresholdRules, type RuleContext } from './rules.js';
import { kindOf, schemaOfKind, type KpiDefinition, type KpiKind, type LineKpi } from './schema.js';

export interface KpiValidationOptions extends RuleContext {
  /** `line` or `machine_type`; detected from the document when absent. */
  kind?: KpiKind;
}

export interface KpiValidationOutcome {
  kind: KpiKind;
  status: 'passed' | 'failed';
  violations: Violation[];
  /** The definition, when it has no errors. */
  definition?: KpiDefinition;
}

/** The field names an object at `path` accepts (for "did you mean" on unknown fields). */
function knownKeys(kind: KpiKind, path: JsonPath): string[] {
  let schema: z.core.$ZodType | undefined = schemaOfKind(kind);
  for (let i = 0; schema && i <= path.length; i += 1) {
    let def = schema._zod.def as unknown as Record<string, unknown>;
    while (def.type === 'optional') {
      schema = def.innerType as z.core.$ZodType;
      def = schema._zod.def as unknown as Record<string, unknown>;
    }
    if (i === path.length) return def.type === 'object' ? Object.keys(def.shape as object) : [];
    if (def.type === 'object') schema = (def.shape as Record<string, z.core.$ZodType>)[String(path[i])];
    else if (def.type === 'array') schema = def.element as z.core.$ZodType;
    else if (def.type === 'record') schema = def.valueType as z.core.$ZodType;
    else return [];
  }
  return [];
}

/** Validates a KPI definition. Never throws, whatever the input. */
export function validateKpi(input: unknown, options: KpiValidationOptions = {}): KpiValidationOutcome {
  const kind = kindOf(input, options.kind);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const given = input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input;
    return { kind, status: 'failed', violations: [error([], say('kpi.kpi_definition_must_json', 'A KPI definition must be a JSON object with name, display_name, formula, dependencies and field_maps, but it is {given}.', { given }))] };
  }
  const parsed = schemaOfKind(kind).safeParse(input);
  if (!parsed.success) {
    const structural = violationsFromIssues(parsed.error.issues, input, (path) => knownKeys(kind, path)).map(explainRowFormula);
    // Misspelt keys only: without them the rest parses, so its rules run in the same pass.
    const stripped = withoutUnknownKeys(input, parsed.error.issues);
    const reparsed = stripped ? schemaOfKind(kind).safeParse(stripped) : undefined;
    const rest = reparsed?.success
      ? allRules(reparsed.data as KpiDefinition, kind, options)
      : partialRules(input as Record<string, unknown>, structural);
    const violations = sortViolations(dedupeViolations([...structural, ...rest]));
    return { kind, status: 'failed', violations };
  }
  const definition = parsed.data as KpiDefinition;
  const violations = sortViolations(dedupeViolations(allRules(definition, kind, options)));
  const failed = hasErrors(violations);
  return { kind, status: failed ? 'failed' : 'passed', violations, ...(failed ? {} : { definition }) };
}

/** A copy of `input` without the keys zod called unknown; undefined when any other issue is there. */
function withoutUnknownKeys(input: object, issues: readonly z.core.$ZodIssue[]): unknown {
  if (!issues.every((i) => i.code === 'unrecognized_keys')) return undefined;
  const copy = structuredClone(input) as Record<string, unknown>;
  for (const issue of issues) {
    let node: unknown = copy;
    for (const part of issue.path) node = (node as Record<PropertyKey, unknown> | undefined)?.[part as string];
    if (node && typeof node === 'object') for (const key of issue.keys) delete (node as Record<string, unknown>)[key];
  }
  return copy;
}

function allRules(definition: KpiDefinition, kind: KpiKind, options: KpiValidationOptions): Violation[] {
  return [
    ...nameRules(definition, options),
    ...dependencyRules(definition.dependencies),
    ...formulaRules(definition.formula, definition.dependencies),
    ...fieldMapRules(definition, kind),
    ...(kind === 'line' ? lineRules(definition as LineKpi) : []),
    ...thresholdRules(definition),
    ...knownNameRules(definition, options.known),
  ];
}

/**
 * The product family's SDK output shows `row_formula` in alias entries; the KPI format has
 * row_conditions for per-record values instead (the format wins: docs/compatibility.md).
 */
function explainRowFormula(violation: Violation): Violation {
  if (violation.json_path.at(-1) !== 'row_formula' || !violation.description.startsWith('Unknown field')) return violation;
  return { ...violation, description: 'row_formula is not part of the KPI format: a per-record value is written as row_conditions (cases with name, op, value, then; and else), and the entry names its column in name.' };
}

/** On a structurally broken document, the formula is still worth checking (live feedback). */
function partialRules(input: Record<string, unknown>, structural: readonly Violation[]): Violation[] {
  if (typeof input.formula !== 'string' || input.formula === '') return [];
  const dependenciesBroken = structural.some((v) => v.json_path[0] === 'dependencies');
  const dependencies = !dependenciesBroken && Array.isArray(input.dependencies) ? (input.dependencies as { name: string }[]) : undefined;
  return formulaRules(input.formula, dependencies);
}


