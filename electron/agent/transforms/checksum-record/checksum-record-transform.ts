/**
 * `checksum_record`: a SHA-256 of chosen parts of the record, for de-duplication downstream. The
 * hash is over canonical JSON (object keys sorted at every level), so the same record gives the
 * same checksum whatever order its columns came in.
 */
import crypto, { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ChecksumRecordTransformSchema } from '../../../../shared/config/schema.js';
import { type AgentRecord, withFieldvalues } from '../../../../shared/records/record.js';
import type { RecordTransform } from '../../components/contract.js';

export type ChecksumRecordConfig = z.infer<typeof ChecksumRecordTransformSchema>;

/** JSON with object keys sorted recursively; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Hex SHA-256 of the canonical JSON of the chosen record parts. */
export function recordChecksum(record: AgentRecord, keys: readonly ChecksumRecordConfig['record_keys'][number][]): string {
  const parts: Record<string, unknown> = {};
  for (const key of keys) parts[key] = record[key];
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/** Hex SHA-256 of a text (UTF-8), one-shot where Node has crypto.hash. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

/**
 * The text recordChecksum hashes, built without intermediate objects: canonicalJson of the chosen
 * parts, with the columns other than `skip` as the fieldvalues part.
 */
function checksumText(record: AgentRecord, parts: readonly string[], skip: string, quoted: (key: string) => string): string {
  let text = '{';
  for (const part of parts) {
    if (part !== 'fieldvalues') {
      const value = record[part as keyof AgentRecord];
      if (value === undefined) continue;
      text += `${text.length > 1 ? ',' : ''}${quoted(part)}:${canonicalJson(value)}`;
      continue;
    }
    const fieldvalues = record.fieldvalues;
    // Sorted by UTF-16 code units, as canonicalJson sorts (column names are distinct).
    const keys = Object.keys(fieldvalues).sort();
    let columns = '{';
    for (const key of keys) {
      if (key === skip) continue;
      const value = fieldvalues[key];
      if (value === undefined) continue;
      const type = typeof value;
      const json = value === null || type === 'string' || type === 'number' || type === 'boolean' ? JSON.stringify(value) : canonicalJson(value);
      columns += `${columns.length > 1 ? ',' : ''}${quoted(key)}:${json}`;
    }
    text += `${text.length > 1 ? ',' : ''}"fieldvalues":${columns}}`;
  }
  return `${text}}`;
}

/**
 * Creates the transform. The output column itself is left out of the hash, so running the
 * transform twice gives the same value.
 */
export function createChecksumRecordTransform(config: ChecksumRecordConfig): RecordTransform {
  // The parts in canonical (sorted) order; a part named twice counts once, as in recordChecksum.
  const parts = [...new Set<string>(config.record_keys)].sort();
  // JSON of column names: the same few names come again in every record.
  const quotedNames = new Map<string, string>();
  const quoted = (key: string): string => {
    let json = quotedNames.get(key);
    if (json === undefined) {
      json = JSON.stringify(key);
      if (quotedNames.size < 10_000) quotedNames.set(key, json);
    }
    return json;
  };
  return {
    name: config.transform_name,
    apply(records) {
      const out = new Array<AgentRecord>(records.length);
      for (let r = 0; r < records.length; r += 1) {
        const record = records[r]!;
        const checksum = sha256Hex(checksumText(record, parts, config.output_field, quoted));
        out[r] = withFieldvalues(record, { ...record.fieldvalues, [config.output_field]: checksum });
      }
      return { records: out, problems: [] };
    },
  };
}
