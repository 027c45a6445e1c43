import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MachineInfo, Usage } from '../../../shared/api/resources.js';
import type { Logger } from '../logging/logger.js';
import { DisposableStore } from '../lifecycle/index.js';

const GB = 1024 ** 3;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function usage(totalBytes: number, availableBytes: number): Usage {
  const total = Math.max(totalBytes, 0);
  const available = Math.min(Math.max(availableBytes, 0), total);
  const used = total - available;
  const percentUsed = total > 0 ? (used / total) * 100 : 0;
  return {
    total_gb: round(total / GB),
    available_gb: round(available / GB),
    used_gb: round(used / GB),
    percent_used: round(percentUsed, 1),
    percent_free: round(100 - percentUsed, 1),
  };
}

/**
 * Size and free space of the file system that holds the data directory (or its nearest existing
 * parent), asked of that very folder: a data directory on its own disk, partition or tmpfs reports
 * that one, not the system disk. Free space is what the agent's user may use (bavail).
 */
export async function dataDiskUsage(dataDirectory: string): Promise<Usage | undefined> {
  let folder = path.resolve(dataDirectory);
  for (;;) {
    try {
      const stats = await fs.promises.statfs(folder);
      return usage(stats.blocks * stats.bsize, stats.bavail * stats.bsize);
    } catch {
      const parent = path.dirname(folder);
      if (parent === folder) return undefined;
      folder = parent;
    }
  }
}

/** CPU time of all cores since boot (ms), busy and in total, as os.cpus() reports it. */
interface CpuTimes {
  busy: number;
  total: number;
}

export function cpuTimes(cpus: readonly os.CpuInfo[] = os.cpus()): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    busy += all - times.idle;
    total += all;
  }
  return { busy, total };
}

/** Share of CPU time the cores were busy between two readings, in % (0 without time between them). */
export function busyPercent(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  return total > 0 ? Math.min(100, Math.max(0, ((after.busy - before.busy) / total) * 100)) : 0;
}

/**
 * CPU, memory and disk of this PC, sampled in the background from os (CPU times, available memory:
 * MemAvailable on Linux) and statfs. Readers get the latest sample at once; a request never waits
 * for a measurement. (systeminformation, used before, ran `cat /proc/stat | grep cpu` in a shell,
 * synchronously, at every sample on Linux, and held ~10 MB of modules: docs/performance.md, Idle.)
 */
export class MachineInfoSampler {
  private latest: MachineInfo;
  /** The sampling interval while started. */
  private running: DisposableStore | undefined;
  private sampling = false;
  // The first sample is the load since boot, as before; later ones the load since the last sample.
  private previousCpu: CpuTimes = { busy: 0, total: 0 };

  constructor(
    private readonly dataDirectory: string,
    private readonly logger: Logger,
    private readonly intervalMs = 5000,
  ) {
    // Until the first sample lands, answer from os (instant) rather than block a request.
    this.latest = {
      cpu: { percent: 0, cpu_count: os.cpus().length },
      memory: usage(os.totalmem(), os.freemem()),
      disk: usage(0, 0),
    };
  }

  start(): void {
    if (this.running) return;
    void this.sample();
    this.running = new DisposableStore();
    this.running.setInterval(() => void this.sample(), this.intervalMs);
  }

  stop(): void {
    this.running?.dispose();
    this.running = undefined;
  }

  current(): MachineInfo {
    return structuredClone(this.latest);
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const disk = await dataDiskUsage(this.dataDirectory);
      const cpus = os.cpus();
      const cpu = cpuTimes(cpus);
      const percent = busyPercent(this.previousCpu, cpu);
      this.previousCpu = cpu;
      this.latest = {
        cpu: { percent: round(percent, 1), cpu_count: cpus.length },
        memory: usage(os.totalmem(), os.freemem()),
        disk: disk ?? this.latest.disk,
      };
    } catch (cause) {
      this.logger.warn(`Could not read machine information: ${(cause as Error).message}`);
    } finally {
      this.sampling = false;
    }
  }
}
