import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, limitViolations } from './limits.js';

/** One opcua receiver whose `streams` streams hold `perStream` tags each. */
const opcuaReceiver = (streams: number, perStream: number) => ({
  data_receiver_name: 'line',
  protocol: 'opcua',
  streams: Array.from({ length: streams }, (_, m) => ({ asset: `M${m}`, stream_type: 'process', opcua_tags: Array.from({ length: perStream }, (_, t) => ({ name: `ns=2;s=T${t}` })) })),
});

describe('configuration limits', () => {
  it('takes 100,000 OPC UA tags in one receiver and refuses one more, at the receiver\'s streams', () => {
    expect(CONFIG_LIMITS.opcuaTagsPerReceiver).toBe(100_000);
    expect(limitViolations({ data_receiver: [opcuaReceiver(100, 1_000)] })).toEqual([]);
    const over = { data_receiver: [opcuaReceiver(100, 1_000), { ...opcuaReceiver(1, 1), streams: [...opcuaReceiver(100, 1_000).streams, ...opcuaReceiver(1, 1).streams] }] };
    expect(limitViolations(over)).toEqual([
      expect.objectContaining({ json_path: ['data_receiver', 1, 'streams'], level: 'error', description: expect.stringMatching(/^The opcua_tags of the streams of this receiver has 100,001 entries; Tributary takes at most 100,000/) }),
    ]);
  });

  it('still refuses one stream\'s opcua_tags list beyond 10,000 entries', () => {
    expect(limitViolations({ data_receiver: [opcuaReceiver(1, 10_001)] })).toEqual([
      expect.objectContaining({ json_path: ['data_receiver', 0, 'streams', 0, 'opcua_tags'], level: 'error', description: expect.stringMatching(/^This list has 10,001 entries/) }),
    ]);
  });
});
