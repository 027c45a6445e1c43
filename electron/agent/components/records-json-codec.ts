import type { AgentRecord } from '../../../shared/records/record.js';
import type { OutboxCodec } from './contract.js';

/**
 * Records stored exactly as they are (microsecond times included), one JSON array per batch: for
 * transmits that write records out as they come (csv), and for transmit types this build cannot run
 * (a build that has them reads the records back).
 */
export const RECORDS_JSON: OutboxCodec<Record<string, never>> = {
  format: 'json',
  options: () => ({}),
  encode: (records) => (records.length === 0 ? [] : [{ payload: Buffer.from(JSON.stringify(records)), records: records.length, first: records[0]!, last: records[records.length - 1]! }]),
  decode: (payload) => JSON.parse(payload.toString('utf8')) as AgentRecord[],
};
