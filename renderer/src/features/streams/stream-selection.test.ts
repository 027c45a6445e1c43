import { describe, expect, it } from 'vitest';
import type { StreamRecord } from '../../../../shared/api/resources.js';
import { matchesFilter, restreamRequestFor, streamKey } from './stream-selection.js';

const record = (data_receiver: string, asset: string, stream_type: string, message = ''): StreamRecord => ({
  stream: `${asset}:${stream_type}`,
  asset,
  stream_type,
  data_receiver,
  markers: message ? [{ component: data_receiver, component_type: 'Receiver', asset, stream_type, category: 'read', timestamp: '2026-01-01 00:00:00.000000', level: 'warning', message }] : [],
  stats: { records_read: 0, last_record_at: null, last_record_timestamp: null, records_per_minute: 0, reading: null, transmits: {}, expected_every_seconds: null, expected_from: null },
  quality: [],
});

describe('restreamRequestFor', () => {
  it('groups the selected streams by receiver and leaves the others out', () => {
    const records = [record('files', 'Press_1', 'cycle'), record('files', 'Oven_2', 'process'), record('db', 'Line', 'orders')];
    const selected = new Set([streamKey(records[0]!), streamKey(records[2]!)]);
    expect(restreamRequestFor(records, selected)).toEqual({
      files: [{ asset: 'Press_1', stream_type: 'cycle' }],
      db: [{ asset: 'Line', stream_type: 'orders' }],
    });
  });
});

describe('matchesFilter', () => {
  it('finds streams by name, receiver or marker text, ignoring case', () => {
    const r = record('files', 'Press_1', 'cycle', 'Folder not found');
    expect(matchesFilter(r, 'press')).toBe(true);
    expect(matchesFilter(r, 'FILES')).toBe(true);
    expect(matchesFilter(r, 'not found')).toBe(true);
    expect(matchesFilter(r, 'oven')).toBe(false);
  });
});
