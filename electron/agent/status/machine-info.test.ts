import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { busyPercent, cpuTimes } from './machine-info.js';

const core = (user: number, sys: number, idle: number): os.CpuInfo => ({ model: 'test', speed: 1000, times: { user, nice: 0, sys, idle, irq: 0 } });

describe('machine CPU load', () => {
  it('is the busy share of the CPU time between two readings, over all cores', () => {
    const before = cpuTimes([core(100, 50, 850), core(0, 0, 1000)]);
    // Core 1: 300 busy of 1000 ms; core 2: 100 busy of 1000 ms → 20 %.
    const after = cpuTimes([core(300, 150, 1550), core(50, 50, 1900)]);
    expect(busyPercent(before, after)).toBeCloseTo(20, 6);
  });

  it('reads 0 when no time passed, and stays within 0–100 % when counters go back', () => {
    const reading = cpuTimes([core(10, 10, 80)]);
    expect(busyPercent(reading, reading)).toBe(0);
    expect(busyPercent(cpuTimes([core(500, 0, 0)]), cpuTimes([core(0, 0, 600)]))).toBe(0);
  });

  it('reads this machine', () => {
    const first = cpuTimes();
    expect(first.total).toBeGreaterThan(0);
    expect(first.busy).toBeLessThanOrEqual(first.total);
  });
});
