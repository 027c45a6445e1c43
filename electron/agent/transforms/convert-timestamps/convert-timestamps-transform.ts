/**
 * `convert_timestamps`: reads time stamps written in a local time zone (text with a strptime
 * format, guessed text, or epoch numbers with a unit) and writes them as ISO 8601 UTC.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import type { z } from 'zod';
import type { ConvertTimestampsTransformSchema } from '../../../../shared/config/schema.js';
import { type AgentRecord, type FieldValue, isoMicros, withFieldvalues } from '../../../../shared/records/record.js';
import { isoFromUtcMs } from '../../time/iso-time.js';
import { type WallTime, fixedWidthReader, guessDateTime, parseStrptime, strptimeReader } from '../../time/strptime.js';
import { offsetResolver, wallNaiveMs, wallTimeToUtcMicros } from '../../time/zoned.js';
import type { RecordTransform, TransformProblem } from '../../components/contract.js';
import { fastIsoUtc } from './fast-paths.js';

export type ConvertTimestampsConfig = z.infer<typeof ConvertTimestampsTransformSchema>;

const MICROS_PER_UNIT: Record<NonNullable<ConvertTimestampsConfig['unit']>, number> = { D: 86_400_000_000, s: 1_000_000, ms: 1_000, us: 1, ns: 0.001 };

// Already converted (by a parser or an earlier transform): an instant, kept as it is.
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/** Epoch microseconds of an ISO UTC text ending in Z, or undefined. */
function isoUtcMicros(text: string): bigint | undefined {
  const match = ISO_UTC.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (date.getUTCDate() !== Number(d) || date.getUTCHours() !== Number(h)) return undefined;
  return BigInt(date.getTime()) * 1000n + BigInt((fraction ?? '').slice(0, 6).padEnd(6, '0'));
}

/**
 * Without a format, texts of these shapes in their fixed-width spelling (fixedWidthReader) are read
 * as guessDateTime reads them (its first shape: year-month-day, then T or spaces and the time), so
 * they take those readers; others are guessed.
 */
const GUESSED_FIXED_FORMATS = ['%Y-%m-%d %H:%M:%S.%f', '%Y-%m-%d %H:%M:%S', '%Y-%m-%d %H:%M', '%Y-%m-%dT%H:%M:%S.%f', '%Y-%m-%dT%H:%M:%S', '%Y-%m-%dT%H:%M', '%Y-%m-%d'];

interface Conversion {
  micros?: bigint;
  dst?: 'gap' | 'overlap';
}

/** The columns this transform converts: field_names (list or one name), else field_name. */
export function convertedFields(config: ConvertTimestampsConfig): string[] {
  if (config.field_names !== undefined) return typeof config.field_names === 'string' ? [config.field_names] : config.field_names;
  return config.field_name === undefined ? [] : [config.field_name];
}

/**
 * Creates the transform. A value that cannot be converted stays as it was; each batch reports
 * at most one problem per kind (with a count and an example), not one per record. When the first
 * converted column is what the record's `timestamp` was taken from (it equals the column's old
 * value), the timestamp follows the conversion. A record with nothing to change (e.g. its values
 * are ISO UTC texts already, as parsers write them) is passed on as it is, not copied.
 */
export function createConvertTimestampsTransform(config: ConvertTimestampsConfig): RecordTransform {
  const fields = convertedFields(config);
  const timeZone = config.timezone ?? 'UTC';
  // Fast paths for text (ISO UTC already: fast-paths.ts; with the format, or in a guessed shape:
  // its reader, the zone's cached offsets, ISO text without BigInt); other values take convert().
  let readers: ((text: string) => WallTime | null)[] = [];
  if (config.unit === undefined) readers = config.format !== undefined ? [strptimeReader(config.format)] : GUESSED_FIXED_FORMATS.flatMap((format) => fixedWidthReader(format) ?? []);
  const resolveOffset = offsetResolver(timeZone);

  function convert(value: FieldValue): Conversion | null {
    if (typeof value === 'string') {
      const instant = isoUtcMicros(value.trim());
      if (instant !== undefined) return { micros: instant };
    }
    if (config.unit !== undefined) {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) return null;
      const micros = number * MICROS_PER_UNIT[config.unit];
      if (!Number.isFinite(micros) || Math.abs(micros) > 8.64e18) return null;
      return { micros: BigInt(Math.floor(micros)) };
    }
    if (typeof value !== 'string') return null;
    const parsed = config.format !== undefined ? parseStrptime(value.trim(), config.format) : guessDateTime(value);
    if (!parsed) return null;
    return wallTimeToUtcMicros(parsed, timeZone);
  }

  return {
    name: config.transform_name,
    apply(records) {
      let failed = 0;
      let example: string | undefined;
      let missing = 0;
      const dst = { gap: 0, overlap: 0 };
      const out: AgentRecord[] = new Array<AgentRecord>(records.length);
      for (let r = 0; r < records.length; r += 1) {
        const record = records[r]!;
        const values = record.fieldvalues;
        let fieldvalues: Record<string, FieldValue> | undefined;
        let timestamp = record.timestamp;
        for (let index = 0; index < fields.length; index += 1) {
          const field = fields[index]!;
          if (!Object.hasOwn(values, field)) {
            missing += 1;
            continue;
          }
          const previous = values[field]!;
          if (previous === null) continue;
          let iso: string | undefined;
          if (typeof previous === 'string') {
            iso = fastIsoUtc(previous);
            const text = iso === undefined && readers.length > 0 ? previous.trim() : '';
            // A text ending in Z may be an ISO instant the general path reads its own way.
            if (text !== '' && text.charCodeAt(text.length - 1) !== 90 /* Z */) {
              for (const read of readers) {
                const wall = read(text);
                if (!wall) continue;
                const naive = wallNaiveMs(wall);
                const chosen = resolveOffset(wall, naive);
                if (chosen.dst) dst[chosen.dst] += 1;
                iso = isoFromUtcMs(naive - chosen.offsetMs, wall.microsecond);
                break;
              }
            }
          }
          if (iso === undefined) {
            const converted = convert(previous);
            if (converted?.micros === undefined) {
              failed += 1;
              example ??= `${field}=${JSON.stringify(previous)}`;
              continue;
            }
            if (converted.dst) dst[converted.dst] += 1;
            iso = isoMicros(converted.micros);
          }
          // Already in its converted form (an ISO UTC instant is kept as it is): nothing to copy.
          if (iso === previous) continue;
          fieldvalues ??= { ...values };
          fieldvalues[field] = iso;
          if (index === 0 && record.timestamp === String(previous)) timestamp = iso;
        }
        out[r] = fieldvalues ? withFieldvalues(record, fieldvalues, timestamp) : record;
      }

      const problems = batchProblems(config, timeZone, fields, { records: records.length, failed, example, missing, dst });
      return { records: out, problems };
    },
  };
}

/** What one batch's conversion says: values it could not read, a column no record has, local times in a DST gap or overlap. */
function batchProblems(
  config: { unit?: string; format?: string },
  timeZone: string,
  fields: readonly string[],
  counts: { records: number; failed: number; example: string | undefined; missing: number; dst: { gap: number; overlap: number } },
): TransformProblem[] {
  const problems: TransformProblem[] = [];
  const warn = (said: AgentMessage) => problems.push({ level: 'warning', message: said.text, said });
  const how =
    config.unit !== undefined
      ? say('timestamps.as_epoch', 'epoch {unit}', { unit: config.unit })
      : config.format !== undefined
        ? say('timestamps.as_format', 'the format {format}', { format: config.format })
        : say('timestamps.as_any', 'any known date format');
  if (counts.failed === 1) warn(say('timestamps.unreadable_one', '1 value could not be read as {how} and was left unchanged (e.g. {example}).', { how, example: String(counts.example) }));
  else if (counts.failed > 1) warn(say('timestamps.unreadable_many', '{count} values could not be read as {how} and were left unchanged (e.g. {example}).', { count: counts.failed, how, example: String(counts.example) }));
  if (counts.missing === counts.records * fields.length && counts.records > 0)
    warn(
      fields.length === 1
        ? say('timestamps.column_missing', 'No record has the column {columns}: check field_names.', { columns: fields.join(', ') })
        : say('timestamps.columns_missing', 'No record has the columns {columns}: check field_names.', { columns: fields.join(', ') }),
    );
  if (counts.dst.gap === 1) warn(say('timestamps.dst_gap_one', '1 local time fell into a daylight-saving gap in {zone} and was moved forward by the gap.', { zone: timeZone }));
  else if (counts.dst.gap > 1) warn(say('timestamps.dst_gap_many', '{count} local times fell into a daylight-saving gap in {zone} and were moved forward by the gap.', { count: counts.dst.gap, zone: timeZone }));
  if (counts.dst.overlap === 1) warn(say('timestamps.dst_overlap_one', '1 local time fell into the repeated hour at the end of daylight saving in {zone} and was read as the first occurrence.', { zone: timeZone }));
  else if (counts.dst.overlap > 1)
    warn(say('timestamps.dst_overlap_many', '{count} local times fell into the repeated hour at the end of daylight saving in {zone} and were read as the first occurrence.', { count: counts.dst.overlap, zone: timeZone }));
  return problems;
}
