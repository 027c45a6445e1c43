/**
 * Evaluation of a KPI on records, per machine and time bin: per bin each dependency is aggregated
 * (sum, min, max, avg) over the values its alias entries give per record (row conditions first),
 * then the formula runs on the aggregates. No values in a bin, division by zero: null.
 */
import { say, type AgentMessage, type MessageParams } from '../config/message.js';
import { isoFromMicros, type FieldValue } from '../records/record.js';
import { asNumber, evaluateFormula } from './formula-evaluate.js';
import { parseFormula } from './formula-parser.js';
import { aliasValue, ResultCache } from './row-conditions.js';
import type { Aggregate, AliasEntry, KpiDefinition, KpiKind } from './schema.js';

/** A record as evaluation needs it: when (epoch microseconds) and its field values. */
export interface HistoryRecord {
  timestamp: number;
  fieldvalues: Record<string, FieldValue>;
}

export type KpiStatus = 'good' | 'bad' | 'neutral';

export interface EvaluatedBin {
  /** ISO 8601 UTC; the bin holds records with start <= timestamp < end. */
  start: string;
  end: string;
  value: number | null;
  status: KpiStatus;
  /** Each dependency aggregated over the bin; null when no record gave a value. */
  dependencies: Record<string, number | null>;
  /** Records that supplied at least one dependency value. */
  records: number;
}

export interface EvaluatedSeries {
  machine: string;
  /** Index of the field map used (machine-type KPIs pick the one that fits the machine's data). */
  field_map: number | null;
  bins: EvaluatedBin[];
  /** Why no bin has a value (no records, none with the mapped fields, the formula); null when some have one. */
  reason: string | null;
  /** The reason's code and params (issue 57), when there is a reason. */
  reason_code?: string;
  reason_params?: MessageParams;
}

/** A series' reason fields from what noValueReason said. */
const reasonFields = (said: AgentMessage | null) => (said ? { reason: said.text, reason_code: said.code, reason_params: said.params } : { reason: null });

export interface EvaluationInput {
  definition: KpiDefinition;
  kind: KpiKind;
  machines: readonly string[];
  /** Epoch microseconds; bins are [start + k·binSize, start + (k+1)·binSize), cut at end. */
  start: number;
  end: number;
  binSize: number;
  /** Records of one machine between start and end (any order). */
  records: (machine: string) => readonly HistoryRecord[];
}

/**
 * good / bad / neutral. Without directionality it follows from the thresholds (good above bad:
 * higher is better), and higher is better when only one threshold is set.
 */
export function kpiStatus(value: number | null, definition: Pick<KpiDefinition, 'directionality' | 'good_threshold' | 'bad_threshold'>): KpiStatus {
  if (value === null) return 'neutral';
  const { good_threshold: good, bad_threshold: bad } = definition;
  const direction = definition.directionality ?? (good !== undefined && bad !== undefined && good < bad ? 'negative' : 'positive');
  if (direction === 'positive') {
    if (good !== undefined && value >= good) return 'good';
    if (bad !== undefined && value <= bad) return 'bad';
  } else {
    if (good !== undefined && value <= good) return 'good';
    if (bad !== undefined && value >= bad) return 'bad';
  }
  return 'neutral';
}

interface Accumulator {
  sum: number;
  min: number;
  max: number;
  count: number;
}

function aggregated(accumulator: Accumulator | undefined, aggregate: Aggregate): number | null {
  if (!accumulator || accumulator.count === 0) return null;
  switch (aggregate) {
    case 'sum':
      return accumulator.sum;
    case 'min':
      return accumulator.min;
    case 'max':
      return accumulator.max;
    case 'avg':
      return accumulator.sum / accumulator.count;
  }
}

/** Where each dependency's values come from for one series: alias entries and their machines. */
type Sources = Map<string, { entry: AliasEntry; machine: string }[]>;

export function evaluateKpi(input: EvaluationInput): EvaluatedSeries[] {
  const { definition, kind } = input;
  const parsed = parseFormula(definition.formula);
  if (!parsed.ok) throw new Error(`The formula cannot be read: ${parsed.error.message}`);
  const expression = parsed.expression;
  const cache = new ResultCache();
  const memo = new Map<string, readonly HistoryRecord[]>();
  const recordsOf = (machine: string) => {
    let hit = memo.get(machine);
    if (!hit) memo.set(machine, (hit = input.records(machine)));
    return hit;
  };
  const binCount = Math.max(1, Math.ceil((input.end - input.start) / input.binSize));

  const evaluateSeries = (sources: Sources): EvaluatedBin[] => {
    const accumulators = new Map<string, (Accumulator | undefined)[]>();
    const contributing: Set<HistoryRecord>[] = Array.from({ length: binCount }, () => new Set());
    for (const [dependency, list] of sources) {
      const perBin: (Accumulator | undefined)[] = new Array(binCount);
      accumulators.set(dependency, perBin);
      for (const { entry, machine } of list) {
        for (const record of recordsOf(machine)) {
          if (record.timestamp < input.start || record.timestamp >= input.end) continue;
          const value = aliasValue(entry, record.fieldvalues, cache);
          if (value === undefined) continue;
          const bin = Math.floor((record.timestamp - input.start) / input.binSize);
          contributing[bin]!.add(record);
          if (value === null) continue;
          const accumulator = (perBin[bin] ??= { sum: 0, min: Infinity, max: -Infinity, count: 0 });
          accumulator.sum += value;
          accumulator.min = Math.min(accumulator.min, value);
          accumulator.max = Math.max(accumulator.max, value);
          accumulator.count += 1;
        }
      }
    }
    const bins: EvaluatedBin[] = [];
    for (let bin = 0; bin < binCount; bin += 1) {
      const dependencies: Record<string, number | null> = {};
      for (const dependency of definition.dependencies) dependencies[dependency.name] = aggregated(accumulators.get(dependency.name)?.[bin], dependency.aggregate);
      const value = asNumber(evaluateFormula(expression, (name) => dependencies[name] ?? null));
      const start = input.start + bin * input.binSize;
      const end = Math.min(input.end, start + input.binSize);
      bins.push({ start: isoFromMicros(start), end: isoFromMicros(end), value, status: kpiStatus(value, definition), dependencies, records: contributing[bin]!.size });
    }
    return bins;
  };

  if (kind === 'line') {
    // One value for the whole line: every field map's entries feed the dependency they map.
    const sources: Sources = new Map(definition.dependencies.map((d) => [d.name, []]));
    for (const fieldMap of definition.field_maps)
      for (const [dependency, entry] of Object.entries(fieldMap.alias_map as Record<string, AliasEntry>))
        sources.get(dependency)?.push({ entry, machine: entry.machine ?? '' });
    const bins = evaluateSeries(sources);
    const reason = reasonFields(noValueReason(bins, sources, say('kpi.the_line', 'the line'), recordsOf, input));
    return input.machines.map((machine) => ({ machine, field_map: null, bins, ...reason }));
  }

  return input.machines.map((machine) => {
    const fieldMapIndex = pickFieldMap(definition, machine, recordsOf);
    const aliasMap = definition.field_maps[fieldMapIndex]!.alias_map as Record<string, AliasEntry>;
    const sources: Sources = new Map(
      definition.dependencies.map((d) => {
        const entry = aliasMap[d.name];
        return [d.name, entry ? [{ entry, machine: entry.machine ?? machine }] : []];
      }),
    );
    const bins = evaluateSeries(sources);
    return { machine, field_map: fieldMapIndex, bins, ...reasonFields(noValueReason(bins, sources, machine, recordsOf, input)) };
  });
}

/**
 * Why a series has no value in any bin, in the words of the preview: no records from its machines
 * in the range, records without the fields the KPI maps, or a formula without a result. Null when
 * some bin has a value.
 */
function noValueReason(bins: readonly EvaluatedBin[], sources: Sources, who: string | AgentMessage, recordsOf: (machine: string) => readonly HistoryRecord[], range: { start: number; end: number }): AgentMessage | null {
  if (bins.some((bin) => bin.value !== null)) return null;
  const machines = [...new Set([...sources.values()].flatMap((list) => list.map((s) => s.machine)))];
  const inRange = machines.reduce((n, machine) => n + recordsOf(machine).filter((r) => r.timestamp >= range.start && r.timestamp < range.end).length, 0);
  const names = machines.length > 0 ? machines.join(', ') : who;
  if (inRange === 0) return say('kpi.no_records_in_range', 'No records from {names} in this range.', { names });
  if (bins.every((bin) => bin.records === 0)) {
    const mapped = [...new Set([...sources.values()].flatMap((list) => list.map((s) => s.entry.name)))];
    const fields = mapped.join(', ');
    if (mapped.length > 1)
      return inRange === 1
        ? say('kpi.record_without_fields', '1 record from {names} in this range, but none has a value for the fields {fields} that this KPI maps.', { names, fields })
        : say('kpi.records_without_fields', '{count} records from {names} in this range, but none has a value for the fields {fields} that this KPI maps.', { count: inRange, names, fields });
    return inRange === 1
      ? say('kpi.record_without_field', '1 record from {names} in this range, but none has a value for the field {fields} that this KPI maps.', { names, fields })
      : say('kpi.records_without_field', '{count} records from {names} in this range, but none has a value for the field {fields} that this KPI maps.', { count: inRange, names, fields });
  }
  return say('kpi.formula_no_value', 'The formula gives no value for {who} in this range: a division by zero, or a dependency without values.', { who });
}

/** The field map whose fields this machine's records carry most often (first on a tie). */
function pickFieldMap(definition: KpiDefinition, machine: string, recordsOf: (machine: string) => readonly HistoryRecord[]): number {
  if (definition.field_maps.length === 1) return 0;
  let best = 0;
  let bestScore = -1;
  definition.field_maps.forEach((fieldMap, j) => {
    let score = 0;
    for (const entry of Object.values(fieldMap.alias_map as Record<string, AliasEntry>))
      if (recordsOf(entry.machine ?? machine).some((record) => Object.hasOwn(record.fieldvalues, entry.name))) score += 1;
    if (score > bestScore) {
      best = j;
      bestScore = score;
    }
  });
  return best;
}
