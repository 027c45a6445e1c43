import { describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { lineOf } from './line-protocol.js';

const record = (fieldvalues: AgentRecord['fieldvalues'], extra: Partial<AgentRecord> = {}): AgentRecord => ({
  asset: 'Press 7', stream_type: 'cycle,a', timestamp: '2026-01-05T06:00:00.123456Z', capturetime: '2026-01-05T06:00:01.000000Z', record_id: 'r', fieldvalues, ...extra,
});
const plain = { tagFields: new Set<string>(), integers: false };

describe('line protocol', () => {
  it('escapes measurement, tag and field names and string values, and keeps microseconds', () => {
    expect(lineOf(record({ 'temp C': 21, 'note': 'say "hi"\\', ok: true }), plain)).toEqual({ line: 'cycle\\,a,asset=Press\\ 7 temp\\ C=21.0,note="say \\"hi\\"\\\\",ok=true 1767592800123456' });
  });

  it('writes floats unless integers is set, tags from tag_fields, and leaves out what InfluxDB refuses', () => {
    expect(lineOf(record({ n: 5, x: 2.5, line: 'L2', empty: '', nan: Number.NaN, none: null, time: '2026-01-05 06:00:00' }), { tagFields: new Set(['line', 'empty']), integers: true })).toEqual({
      line: 'cycle\\,a,asset=Press\\ 7,line=L2 n=5i,x=2.5 1767592800123456',
    });
    expect(lineOf(record({ n: 5 }), { ...plain, measurement: 'press' })).toEqual({ line: 'press,asset=Press\\ 7 n=5.0 1767592800123456' });
    expect(lineOf(record({ only: null }), plain)).toEqual({ skipped: expect.objectContaining({ code: 'influx.no_field', text: expect.stringContaining('no field with a value') }) });
  });
});
