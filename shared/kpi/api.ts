/**
 * Payloads of the KPI endpoints (/v1/kpis…): the library entries and the evaluation request and
 * answer. The definition itself is validated by `validateKpi`, not by these schemas.
 */
import { MessageCodeSchema, MessageParamsSchema } from '../config/message-schema.js';
import { z } from 'zod';
import { ViolationSchema } from '../config/violations.js';
import { KPI_KINDS } from './schema.js';

export const KpiKindSchema = z.enum(KPI_KINDS);

export const KpiLibraryEntrySchema = z.object({
  name: z.string(),
  display_name: z.string(),
  kind: KpiKindSchema,
  unit: z.string().nullable(),
  last_modified: z.string().describe('UTC, YYYY-MM-DD HH:MM:SS.ffffff.'),
  definition: z.record(z.string(), z.unknown()),
});
export type KpiLibraryEntry = z.infer<typeof KpiLibraryEntrySchema>;

export const KpiMetaSchema = z.object({
  kind: KpiKindSchema,
  last_modified: z.string(),
  violations: z.array(ViolationSchema).optional().describe('Warnings of a save that passed.'),
});

/** Seconds, or text such as "30s", "15m", "1h", "1d". */
export const BinSizeSchema = z.union([z.number().positive(), z.string()]);

export const EvaluateRequestSchema = z.strictObject({
  name: z.string().min(1).optional().describe('A KPI of the library; or send `definition`.'),
  definition: z.unknown().optional().describe('A KPI definition to try without saving it.'),
  kind: KpiKindSchema.optional().describe('Kind of `definition` (detected like /v1/kpis/validate when absent).'),
  machines: z.array(z.string().min(1)).max(50).optional().describe('Machines (assets); default: every machine with recent records (machine-type KPI) or the machines the line KPI names.'),
  start: z.string().optional().describe('UTC, ISO 8601 or YYYY-MM-DD HH:MM:SS(.ffffff); default end − 24 h.'),
  end: z.string().optional().describe('Default: now.'),
  bin_size: BinSizeSchema.optional().describe('Seconds or "30s", "15m", "1h", "1d"; default 1 h.'),
});
export type EvaluateRequest = z.infer<typeof EvaluateRequestSchema>;

export const EvaluatedBinSchema = z.object({
  start: z.string(),
  end: z.string(),
  value: z.number().nullable().describe('null: no data, or a division by zero.'),
  status: z.enum(['good', 'bad', 'neutral']),
  dependencies: z.record(z.string(), z.number().nullable()).describe('Each dependency aggregated over the bin.'),
  records: z.number().int().describe('Records that supplied at least one dependency value.'),
});

export const KpiEvaluationSchema = z.object({
  name: z.string(),
  display_name: z.string(),
  kind: KpiKindSchema,
  unit: z.string().nullable(),
  directionality: z.enum(['positive', 'negative']).nullable(),
  good_threshold: z.number().nullable(),
  bad_threshold: z.number().nullable(),
  start: z.string(),
  end: z.string(),
  bin_size_seconds: z.number(),
  machines: z.array(
    z.object({
      machine: z.string(),
      field_map: z.number().int().nullable(),
      bins: z.array(EvaluatedBinSchema),
      reason: z.string().nullable().optional().describe('Why no bin has a value (no records, none with the mapped fields, the formula); null when some bin has one.'),
      reason_code: MessageCodeSchema.optional().describe('Stable code of reason (issue 57); absent when there is none.'),
      reason_params: MessageParamsSchema.optional(),
    }),
  ),
  violations: z.array(ViolationSchema).describe('Warnings of the definition.'),
});
export type KpiEvaluation = z.infer<typeof KpiEvaluationSchema>;

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, m: 60, min: 60, h: 3600, d: 86_400 };

/** A bin size in seconds; undefined when unreadable or below one second. */
export function parseBinSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 1 ? value : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d)?\s*$/.exec(value);
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']!;
  return seconds >= 1 ? seconds : undefined;
}
