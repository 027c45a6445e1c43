import type { MachineInfo } from '../../../shared/api/resources.js';

/** One sample of machine load, kept client-side for the short live charts on the Status page. */
export interface UsageSample {
  at: number;
  cpu: number;
  memory: number;
  disk: number;
}

export const USAGE_HISTORY_LENGTH = 60;

/** Appends a sample and keeps the newest `limit`; pure, so the cache can hold the result. */
export function appendUsageSample(history: readonly UsageSample[] | undefined, at: number, machine: MachineInfo, limit = USAGE_HISTORY_LENGTH): UsageSample[] {
  const sample: UsageSample = { at, cpu: machine.cpu.percent, memory: machine.memory.percent_used, disk: machine.disk.percent_used };
  const next = [...(history ?? []), sample];
  return next.length > limit ? next.slice(next.length - limit) : next;
}
