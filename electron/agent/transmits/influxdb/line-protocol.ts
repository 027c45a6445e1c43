/**
 * Records as InfluxDB line protocol (https://docs.influxdata.com/influxdb/v1/write_protocols/line_protocol_reference/):
 * measurement = the record's stream_type (or the configured one), tag asset plus the configured
 * tag fields, the other fields as fields (numbers as floats unless integers, booleans, strings),
 * time = the record's time stamp in microseconds (precision u / us).
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { isoToEpochMicros } from '../../time/iso-time.js';

export interface LineOptions {
  measurement?: string;
  tagFields: ReadonlySet<string>;
  integers: boolean;
}

/** A line, or why the record gives none. */
export type Line = { line: string } | { skipped: AgentMessage };

const escapeMeasurement = (text: string) => text.replace(/[\\, ]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
const escapeKey = (text: string) => text.replace(/[\\,= ]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
const escapeString = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

function fieldValue(value: unknown, integers: boolean): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    if (integers && Number.isSafeInteger(value)) return `${value}i`;
    return Number.isInteger(value) ? `${value}.0` : String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return escapeString(value);
  return undefined;
}

export function lineOf(record: AgentRecord, options: LineOptions): Line {
  const measurement = options.measurement ?? record.stream_type;
  const tags: string[] = [];
  if (record.asset !== '') tags.push(`asset=${escapeKey(record.asset)}`);
  const fields: string[] = [];
  for (const [name, value] of Object.entries(record.fieldvalues)) {
    // `time` is InfluxDB's own column (a field of that name is refused or dropped): the point's time
    // is the record's time stamp, usually read from that very field.
    if (name === '' || name === 'time') continue;
    if (options.tagFields.has(name)) {
      // An empty tag value is refused by InfluxDB: the tag is left out.
      if (value !== null && value !== '') tags.push(`${escapeKey(name)}=${escapeKey(String(value))}`);
      continue;
    }
    const text = fieldValue(value, options.integers);
    if (text !== undefined) fields.push(`${escapeKey(name)}=${text}`);
  }
  if (fields.length === 0) return { skipped: say('influx.no_field', 'it has no field with a value (InfluxDB needs one)') };
  const micros = isoToEpochMicros(record.timestamp);
  if (micros === undefined) return { skipped: say('influx.bad_timestamp', 'its time stamp {timestamp} is not a time', { timestamp: String(record.timestamp) }) };
  tags.sort();
  return { line: `${escapeMeasurement(measurement)}${tags.length > 0 ? `,${tags.join(',')}` : ''} ${fields.join(',')} ${micros}` };
}
