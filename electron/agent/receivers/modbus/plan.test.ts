import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlanItem, describeRequest, planReads } from './plan.js';

const item = (address: number, count = 1, more: Partial<PlanItem> = {}): PlanItem => ({ stream: 0, value: address, unit: 1, table: 'holding', address, count, ...more });

describe('modbus read plan', () => {
  it('reads the issue example in four requests, not six', () => {
    const plan = planReads([item(0, 2), item(10, 2, { table: 'input' }), item(12, 2, { table: 'input' }), item(8), item(20, 4), item(0, 1, { table: 'coil' })]);
    expect(plan.map(describeRequest)).toEqual(['unit 1, holding registers 0–8', 'unit 1, holding registers 20–23', 'unit 1, input registers 10–13', 'unit 1, coil 0']);
  });

  it('keeps units and tables apart and splits at a large gap', () => {
    const plan = planReads([item(0), item(0, 1, { unit: 2 }), item(100), item(1, 1, { table: 'input' })]);
    expect(plan.map(describeRequest).sort()).toEqual(['unit 1, holding register 0', 'unit 1, holding register 100', 'unit 1, input register 1', 'unit 2, holding register 0']);
  });

  it('reads one request per value when merging is off', () => {
    expect(planReads([item(0, 2), item(2, 2)], { merge: false })).toHaveLength(2);
  });

  it('covers every value, never asks more than 125 registers or 2,000 bits, and merges neighbours', () => {
    const values = fc.array(
      fc.record({
        unit: fc.integer({ min: 0, max: 3 }),
        table: fc.constantFrom('holding', 'input', 'coil', 'discrete'),
        address: fc.integer({ min: 0, max: 3000 }),
        count: fc.integer({ min: 1, max: 4 }),
      }),
      { minLength: 1, maxLength: 200 },
    );
    fc.assert(
      fc.property(values, (raw) => {
        const items = raw.map((r, i) => ({ ...r, count: r.table === 'coil' || r.table === 'discrete' ? 1 : r.count, stream: 0, value: i }) as PlanItem);
        const plan = planReads(items);
        const covered = plan.flatMap((request) => {
          expect(request.count).toBeLessThanOrEqual(request.table === 'holding' || request.table === 'input' ? 125 : 2000);
          return request.items.map((it) => {
            expect([it.unit, it.table]).toEqual([request.unit, request.table]);
            expect(it.address).toBeGreaterThanOrEqual(request.address);
            expect(it.address + it.count).toBeLessThanOrEqual(request.address + request.count);
            return it.value;
          });
        });
        expect(covered.sort((a, b) => a - b)).toEqual(items.map((it) => it.value));
        // Two requests of one unit and table that could have been one are a planning fault.
        const sorted = [...plan].sort((a, b) => a.unit - b.unit || a.table.localeCompare(b.table) || a.address - b.address);
        for (let i = 1; i < sorted.length; i += 1) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          if (a.unit !== b.unit || a.table !== b.table) continue;
          const gap = b.address - (a.address + a.count);
          const limit = a.table === 'holding' || a.table === 'input' ? 125 : 2000;
          if (gap <= 0 && b.address + b.count - a.address <= limit) expect.fail(`${describeRequest(a)} and ${describeRequest(b)} overlap but were not merged`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
