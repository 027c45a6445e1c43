import { describe, expect, it } from 'vitest';
import { parseS7Address } from '../../../../shared/config/receivers/s7/address.js';
import { MAX_ITEMS_PER_REQUEST, type PlanItem, maxPartBytes, planRanges, planRequests } from './plan.js';

const item = (address: string, value = 0, stream = 0): PlanItem => ({ stream, value, address: parseS7Address(address).address! });

/** The bytes a job's request and answer take, as the S7 protocol counts them. */
function sizes(request: ReturnType<typeof planRequests>[number]) {
  const asked = 12 + 12 * request.parts.length;
  const answered = 14 + request.parts.reduce((sum, p) => sum + 4 + p.length + (p.length % 2), 0);
  return { asked, answered };
}

describe('s7 read plan', () => {
  it('reads the values of one block that lie close together as one range, and each area apart', () => {
    const ranges = planRanges([item('DB1,REAL0'), item('DB1,INT4', 1), item('DB1,X6.0', 2), item('DB1,DINT8', 3), item('MW10', 4), item('M0.1', 5), item('DB2,INT0', 6)], 240);
    expect(ranges.map((r) => [r.area, r.db, r.start, r.length, r.items.length])).toEqual([
      ['DB', 1, 0, 12, 4],
      ['M', 0, 0, 12, 2],
      ['DB', 2, 0, 2, 1],
    ]);
    expect(planRequests(ranges, 240)).toHaveLength(1);
  });

  it('starts a new range after a gap of more than 16 bytes, or when the range would not fit one answer', () => {
    expect(planRanges([item('DB1,INT0'), item('DB1,INT18', 1)], 240)).toHaveLength(1);
    expect(planRanges([item('DB1,INT0'), item('DB1,INT19', 1)], 240)).toHaveLength(2);
    const spread = Array.from({ length: 40 }, (_, i) => item(`DB1,DINT${i * 10}`, i));
    const ranges = planRanges(spread, 240);
    for (const range of ranges) expect(range.length).toBeLessThanOrEqual(maxPartBytes(240));
    expect(ranges.length).toBeGreaterThan(1);
  });

  it('keeps every job within the PDU size both ways, with as few jobs as that allows', () => {
    for (const pdu of [240, 480, 960]) {
      const many = Array.from({ length: 200 }, (_, i) => item(`DB${1 + (i % 50)},REAL${Math.floor(i / 50) * 100}`, i));
      const ranges = planRanges(many, pdu);
      const requests = planRequests(ranges, pdu);
      for (const request of requests) {
        const { asked, answered } = sizes(request);
        expect(asked).toBeLessThanOrEqual(pdu);
        expect(answered).toBeLessThanOrEqual(pdu);
        expect(request.parts.length).toBeLessThanOrEqual(MAX_ITEMS_PER_REQUEST);
      }
      // 200 ranges of 4 bytes: at most 20 items a job, and at 240 bytes only 19 item requests fit.
      const itemsPerJob = Math.min(MAX_ITEMS_PER_REQUEST, Math.floor((pdu - 12) / 12), Math.floor((pdu - 14) / 8));
      expect(requests).toHaveLength(Math.ceil(ranges.length / itemsPerJob));
    }
  });

  it('reads a range longer than one answer in parts', () => {
    const long = item('DB1,S0.254');
    const ranges = planRanges([long], 240);
    expect(ranges).toEqual([expect.objectContaining({ start: 0, length: 256 })]);
    const requests = planRequests(ranges, 240);
    const parts = requests.flatMap((r) => r.parts).sort((a, b) => a.offset - b.offset);
    expect(parts.map((p) => [p.offset, p.length])).toEqual([
      [0, maxPartBytes(240)],
      [maxPartBytes(240), 256 - maxPartBytes(240)],
    ]);
    for (const request of requests) expect(sizes(request).answered).toBeLessThanOrEqual(240);
    // At 960 bytes it is one part of one job.
    expect(planRequests(planRanges([long], 960), 960)).toEqual([{ parts: [expect.objectContaining({ offset: 0, length: 256 })] }]);
  });

  it('gives a range per value once merging is off (after a merged range was refused)', () => {
    expect(planRanges([item('DB1,INT0'), item('DB1,INT2', 1)], 240, { merge: false })).toHaveLength(2);
  });
});
