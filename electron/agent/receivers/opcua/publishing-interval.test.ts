import { describe, expect, it } from 'vitest';
import { MAX_PUBLISHING_INTERVAL_MS, publishingIntervalFor } from './subscription-reader.js';

describe('publishing interval of the subscription', () => {
  it('never holds a sampled value longer than 250 ms in the server, whatever the sampling interval', () => {
    expect(MAX_PUBLISHING_INTERVAL_MS).toBe(250);
    for (const sampling of [1000, 5000, 60_000]) expect(publishingIntervalFor(sampling)).toBe(250);
  });

  it('follows a faster sampling interval down to 100 ms (0, the fastest the server offers, too)', () => {
    expect(publishingIntervalFor(200)).toBe(200);
    expect(publishingIntervalFor(50)).toBe(100);
    expect(publishingIntervalFor(0)).toBe(100);
  });
});
