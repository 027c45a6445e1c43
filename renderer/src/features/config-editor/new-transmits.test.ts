import { describe, expect, it } from 'vitest';
import { newTransmits, restreamRequest } from './new-transmits.js';

const receiver = { data_receiver_name: 'plant', streams: [{ asset: 'Press_1', stream_type: 'cycle' }, { asset: 'Oven_2', stream_type: 'process' }] };
const saved = { data_receiver: [receiver], data_transmit: [{ transmit_name: 'archive', filter_stream: ['Press_1:cycle'] }] };

describe('new transmits of a draft', () => {
  it('finds a transmit added by name with the streams it takes, and none when only an old one changes', () => {
    const draft = { ...saved, data_transmit: [...saved.data_transmit, { transmit_name: 'cloud', filter_stream: ['*:process'] }] };
    const found = newTransmits(saved, draft);
    expect(found.map((t) => [t.name, t.streams.map((s) => `${s.receiver}/${s.asset}:${s.stream_type}`)])).toEqual([['cloud', ['plant/Oven_2:process']]]);
    expect(newTransmits(saved, { ...saved, data_transmit: [{ transmit_name: 'archive', filter_stream: ['*'] }] })).toEqual([]);
  });

  it('a transmit without filter_stream takes every stream; chosen streams become a restream body per receiver', () => {
    const found = newTransmits({ data_receiver: [receiver] }, { data_receiver: [receiver], data_transmit: [{ transmit_name: 'cloud' }] });
    const streams = found[0]!.streams;
    expect(streams).toHaveLength(2);
    expect(restreamRequest(streams, new Set([streams[1]!.key]))).toEqual({ plant: [{ asset: 'Oven_2', stream_type: 'process' }] });
    expect(restreamRequest(streams, new Set())).toBeUndefined();
  });
});
