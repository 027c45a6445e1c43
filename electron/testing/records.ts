/** Records for transform tests. */
import type { AgentRecord, FieldValue } from '../../shared/records/record.js';

/** A record of stream Press_1:cycle with the given columns. */
export function record(fieldvalues: Record<string, FieldValue>, extra: Partial<AgentRecord> = {}): AgentRecord {
  return {
    asset: 'Press_1',
    stream_type: 'cycle',
    timestamp: '2026-01-05T06:00:00.000000Z',
    capturetime: '2026-01-05T06:00:01.000000Z',
    fieldvalues,
    record_id: 'r1',
    ...extra,
  };
}
