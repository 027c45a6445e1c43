/**
 * `checksum_record`: a SHA-256 of chosen parts of the record, for de-duplication downstream. The
 * hash is over canonical JSON (object keys sorted at every level), so the same record gives the
 * same checksum whatever order its columns came in.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { ChecksumRecordTransformSchema } from '../../../../shared/config/schema.js';
import type { AgentRecord } from '../../../../shared/records/record.js';
import type { RecordTransform } from '../transform.js';

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

/**
 * Creates the transform. The output column itself is left out of the hash, so running the
 * transform twice gives the same value.
 */
export function createChecksumRecordTransform(config: ChecksumRecordConfig): RecordTransform {
  return {
    name: config.transform_name,
    apply(records) {
      const out = records.map((record) => {
        const { [config.output_field]: _previous, ...others } = record.fieldvalues;
        const checksum = recordChecksum({ ...record, fieldvalues: others }, config.record_keys);
        return { ...record, fieldvalues: { ...record.fieldvalues, [config.output_field]: checksum } };
      });
      return { records: out, problems: [] };
    },
  };
}
