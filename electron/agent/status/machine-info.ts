import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import si from 'systeminformation';
import type { MachineInfo, Usage } from '../../../shared/api/resources.js';
import type { Logger } from '../logging/logger.js';

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

/**
 * CPU, memory and disk of this PC, sampled in the background with systeminformation. Readers get
 * the latest sample at once; a request never waits for a measurement.
 */
export class MachineInfoSampler {
  private latest: MachineInfo;
  private timer: NodeJS.Timeout | undefined;
  private sampling = false;

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
    if (this.timer) return;
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  current(): MachineInfo {
    return structuredClone(this.latest);
  }

  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const [load, memory, disk] = await Promise.all([si.currentLoad(), si.mem(), dataDiskUsage(this.dataDirectory)]);
      this.latest = {
        cpu: { percent: round(load.currentLoad, 1), cpu_count: os.cpus().length },
        memory: usage(memory.total, memory.available),
        disk: disk ?? this.latest.disk,
      };
    } catch (cause) {
      this.logger.warn(`Could not read machine information: ${(cause as Error).message}`);
    } finally {
      this.sampling = false;
    }
  }
}
