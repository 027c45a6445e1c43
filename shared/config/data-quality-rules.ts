/**
 * The data_quality section's semantic rules, and the settings each stream runs with (the defaults,
 * then every entry that selects the stream in order: the later entry's settings win per check).
 * Pure: validation in the agent and the console, and the agent's checks, use the same resolution.
 */
import type { DataQualityEntry } from './data-quality-schema.js';
import { filterSelects, parseFilter } from './streams.js';
import { type JsonPath, type Violation, error, warning, say } from './violations.js';

/** What one stream is checked for (plain data: it travels to the parse threads with a commit plan). */
export interface QualitySettings {
  stuck: { afterSeconds: number; minRecords: number; fields: string[] | null } | null;
  /** Per field, [low, high]. */
  range: Record<string, [number, number]>;
  /** 'usual': 10 times the stream's usual interval, at least 5 minutes (the default); null: off. */
  gap: { afterSeconds: number } | 'usual' | null;
  clock: { maxAheadSeconds: number; maxBehindSeconds: number | null } | null;
  schema: boolean;
}

/** Without a data_quality section, or for checks no entry sets. */
export const DEFAULT_QUALITY: QualitySettings = Object.freeze({
  stuck: null,
  range: {},
  gap: 'usual',
  clock: { maxAheadSeconds: 300, maxBehindSeconds: null },
  schema: true,
}) as QualitySettings;

/** The settings of the stream `asset:stream_type` (the default settings object itself when no entry selects it). */
export function qualitySettingsFor(entries: readonly DataQualityEntry[] | undefined, stream: string): QualitySettings {
  let settings: QualitySettings | undefined;
  for (const entry of entries ?? []) {
    if (!filterSelects(entry.filter_stream, stream)) continue;
    settings ??= { ...DEFAULT_QUALITY };
    if (entry.stuck) settings.stuck = { afterSeconds: entry.stuck.after_seconds, minRecords: entry.stuck.min_records, fields: entry.stuck.fields ?? null };
    if (entry.range) settings.range = { ...entry.range };
    if (entry.gap !== undefined) settings.gap = entry.gap === false ? null : { afterSeconds: entry.gap.after_seconds };
    if (entry.clock !== undefined) settings.clock = entry.clock === false ? null : { maxAheadSeconds: entry.clock.max_ahead_seconds, maxBehindSeconds: entry.clock.max_behind_seconds ?? null };
    if (entry.schema !== undefined) settings.schema = entry.schema;
  }
  return settings ?? DEFAULT_QUALITY;
}

/** Rules the schema cannot say; `selectsAny` tells whether a filter entry selects a configured stream. */
export function dataQualityViolations(entries: readonly (DataQualityEntry | undefined)[] | undefined, selectsAny?: (entry: string) => boolean): Violation[] {
  const out: Violation[] = [];
  entries?.forEach((entry, i) => {
    if (!entry) return;
    const base: JsonPath = ['data_quality', i];
    if (entry.filter_stream.length === 0) out.push(error([...base, 'filter_stream'], say('quality.filter_stream_empty_name_streams', 'filter_stream is empty: name the streams to check ("asset:stream_type", or "*" for all).')));
    entry.filter_stream.forEach((filter, k) => {
      const problem = parseFilter(filter).problem;
      if (problem) out.push(error([...base, 'filter_stream', k], say('stream_filter.invalid', '{text}', { text: problem, filter })));
      else if (selectsAny && !selectsAny(filter)) out.push(warning([...base, 'filter_stream', k], say('quality.matches_none_configured_streams', '"{filter}" matches none of the configured streams: these checks watch nothing.', { filter })));
    });
    for (const [field, [low, high]] of Object.entries(entry.range ?? {}))
      if (low > high) out.push(error([...base, 'range', field], say('quality.range_low_must_above', 'The range of {field} is [{low}, {high}]: low must not be above high. Write [{high}, {low}].', { field, low, high })));
    if (entry.stuck?.fields) {
      const seen = new Set<string>();
      entry.stuck.fields.forEach((field, k) => {
        if (seen.has(field)) out.push(warning([...base, 'stuck', 'fields', k], say('quality.listed_twice', '"{field}" is listed twice.', { field })));
        seen.add(field);
      });
    }
    if (!entry.stuck && !entry.range && entry.gap === undefined && entry.clock === undefined && entry.schema === undefined)
      out.push(warning(base, say('quality.entry_sets_check_add', 'This entry sets no check: add stuck, range, gap, clock or schema.')));
  });
  return out;
}
