/**
 * The KPI definition format (shared/spec/kpi-definition-format.md): machine-type KPIs and line KPIs.
 * Field names are the spec's, verbatim. Objects are strict: an unknown (often misspelt) field is a
 * violation. What a schema cannot say (formula, references, value types per op) is in `rules.ts`.
 */
import { z } from 'zod';

export const KPI_KINDS = ['machine_type', 'line'] as const;
export type KpiKind = (typeof KPI_KINDS)[number];

export const AGGREGATES = ['sum', 'min', 'max', 'avg'] as const;
export type Aggregate = (typeof AGGREGATES)[number];

export const ROW_CONDITION_OPS = ['lt', 'lte', 'gt', 'gte', 'eq', 'ne', 'in', 'nin', 'startswith', 'not', 'exists', 'contains', 'like', 'notlike', 'overlaps'] as const;
export type RowConditionOp = (typeof ROW_CONDITION_OPS)[number];

const RESULT_HELP = 'A number, true/false, null, or text: a raw field name or an expression over raw field names (write a name with whitespace as column[\'raw name\']).';

export const RowCaseSchema = z
  .strictObject({
    name: z.string().min(1).describe('Raw field name whose value is tested.'),
    op: z.enum(ROW_CONDITION_OPS).describe('How the field is compared with value.'),
    value: z.unknown().optional().describe('Literal compared with the field: a number for lt/lte/gt/gte; a list for in/nin/overlaps; text for startswith/contains/like/notlike; true/false for not/exists.'),
    then: z.unknown().optional().describe(`Result when the condition holds. ${RESULT_HELP}`),
  })
  .describe('One case of the row conditions.');
export type RowCase = z.infer<typeof RowCaseSchema>;

export const RowConditionsSchema = z
  .strictObject({
    cases: z.array(RowCaseSchema).min(1, 'a row_conditions needs at least one case').describe('Checked in array order; the first that holds gives the value.'),
    else: z.unknown().optional().describe(`Result when no case holds (default: the value of the mapped field). ${RESULT_HELP}`),
  })
  .describe('Computes the dependency per record, before aggregation.');
export type RowConditions = z.infer<typeof RowConditionsSchema>;

const aliasFields = {
  name: z.string().min(1).describe('Raw field name (column) that supplies the dependency.'),
  row_conditions: RowConditionsSchema.optional(),
};

export const MachineTypeAliasEntrySchema = z.strictObject({
  ...aliasFields,
  machine: z.string().min(1).optional().describe('Optional: take this dependency from this machine only.'),
  machine_type: z.string().min(1).optional().describe('Not used by machine-type KPIs.'),
});

export const LineAliasEntrySchema = z.strictObject({
  ...aliasFields,
  machine: z.string().min(1).describe('The machine supplying this dependency.'),
  machine_type: z.string().min(1).optional().describe('Machine type of that machine; when given, one of the field map\'s machine_types.'),
});
export type AliasEntry = z.infer<typeof MachineTypeAliasEntrySchema>;

export const DependencySchema = z.strictObject({
  name: z.string().min(1).describe('Variable name as used in the formula.'),
  aggregate: z.enum(AGGREGATES).describe('Applied per bin before the formula runs.'),
});
export type Dependency = z.infer<typeof DependencySchema>;

export const MachineTypeFieldMapSchema = z.strictObject({
  alias_map: z.record(z.string(), MachineTypeAliasEntrySchema).describe('Dependency name → the field that supplies it.'),
  // Accepted here so that a forced machine-type validation can say why it does not belong.
  machine_types: z.array(z.string().min(1)).optional().describe('Line KPIs only.'),
});

export const LineFieldMapSchema = z.strictObject({
  alias_map: z.record(z.string(), LineAliasEntrySchema).describe('Dependency name → the machine and field that supply it.'),
  machine_types: z.array(z.string().min(1)).min(1, 'a machine_types list needs at least one machine type').describe('Every machine type used in the calculation.'),
});

const RollupsSchema = z
  .strictObject({
    factory: z.record(z.string(), z.array(z.string().min(1))).optional().describe('Factory name → machine names.'),
    line: z.record(z.string(), z.array(z.string().min(1))).optional().describe('Line name → machine names.'),
  })
  .describe('Which machines feed the factory and line values on the homepage.');

const commonFields = {
  name: z.string().min(1).describe('Raw field name of the KPI (spaces allowed); unique in the library.'),
  display_name: z.string().min(1).describe('Shown in the UI; should be unique.'),
  formula: z.string().min(1).describe('Expression over dependency names: numbers, + - * / **, parentheses, comparisons, and/or/not, "a if cond else b", None, abs/min/max/round.'),
  dependencies: z.array(DependencySchema).min(1, 'a KPI needs at least one dependency'),
  unit: z.string().optional().describe('Unit of measure, e.g. %.'),
  directionality: z.enum(['positive', 'negative']).optional().describe('positive: higher is better; negative: lower is better.'),
  good_threshold: z.number().optional().describe('Value at which the KPI is good.'),
  bad_threshold: z.number().optional().describe('Value at which the KPI is bad.'),
};

export const MachineTypeKpiSchema = z
  .strictObject({
    ...commonFields,
    field_maps: z.array(MachineTypeFieldMapSchema).min(1, 'a KPI needs at least one field map'),
    rollups: RollupsSchema.optional(),
  })
  .describe('Machine-type KPI: evaluates one machine, or compares machines of one type.');
export type MachineTypeKpi = z.infer<typeof MachineTypeKpiSchema>;

export const LineKpiSchema = z
  .strictObject({
    ...commonFields,
    field_maps: z.array(LineFieldMapSchema).min(1, 'a KPI needs at least one field map'),
    // Accepted here so that the rules can say that line KPIs have none.
    rollups: z.unknown().optional().describe('Not allowed for line KPIs.'),
  })
  .describe('Line KPI: evaluates a whole production line from several machines.');
export type LineKpi = z.infer<typeof LineKpiSchema>;

export type KpiDefinition = MachineTypeKpi | LineKpi;

export function schemaOfKind(kind: KpiKind) {
  return kind === 'line' ? LineKpiSchema : MachineTypeKpiSchema;
}

/**
 * The kind of a definition as decisions.md says: `line` when asked for, or when any field_maps item
 * carries machine_types; otherwise machine-type (`machine_type` forces that).
 */
export function kindOf(document: unknown, requested?: KpiKind): KpiKind {
  if (requested) return requested;
  const maps = document !== null && typeof document === 'object' ? (document as { field_maps?: unknown }).field_maps : undefined;
  return Array.isArray(maps) && maps.some((map) => map !== null && typeof map === 'object' && !Array.isArray(map) && 'machine_types' in map) ? 'line' : 'machine_type';
}

/** JSON Schema of a KPI document (either kind), for the editor's completion and hover help. */
export function kpiJsonSchema(): Record<string, unknown> {
  const document = z.union([MachineTypeKpiSchema, LineKpiSchema]).describe('A machine-type KPI or a line KPI (a line KPI has machine_types in its field maps).');
  return z.toJSONSchema(document, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
