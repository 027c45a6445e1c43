import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * What this PC is, in one line for the core log at start-up ("Dell Inc. OptiPlex 7090; Intel Core
 * i5-10500T, 6 cores; Debian GNU/Linux 12 (x64); 16 GB"): the first thing support asks about an edge
 * PC. systeminformation knows it on Windows and Linux alike, but loads ~10 MB of modules and runs
 * shell commands; it runs once, in a short-lived worker thread, so the agent keeps neither.
 * Undefined when it fails or takes longer than `timeoutMs`: never worth delaying or failing a start.
 */
export function describeMachine(timeoutMs = 30_000): Promise<string | undefined> {
  const module = createRequire(import.meta.url).resolve('systeminformation');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module } });
  worker.unref();
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    timer.unref();
    function finish(text: string | undefined) {
      clearTimeout(timer);
      void worker.terminate();
      resolve(text);
    }
    worker.once('message', (facts: MachineFacts | { error: string }) => finish('error' in facts ? undefined : machineLine(facts)));
    worker.once('error', () => finish(undefined));
    worker.once('exit', () => finish(undefined));
  });
}

export interface MachineFacts {
  system: { manufacturer?: string; model?: string; virtual?: boolean };
  cpu: { manufacturer?: string; brand?: string; physicalCores?: number; cores?: number };
  os: { distro?: string; release?: string; arch?: string };
  memoryBytes: number;
}

const known = (value: string | undefined) => (value && !/^(default string|to be filled|system product name|-)$/i.test(value.trim()) ? value.trim() : undefined);

/** The facts as one line; parts systeminformation could not tell are left out. */
export function machineLine(facts: MachineFacts): string {
  const { system, cpu, os } = facts;
  const box = [known(system.manufacturer), known(system.model)].filter(Boolean).join(' ');
  const cores = cpu.physicalCores || cpu.cores;
  const processor = [[known(cpu.manufacturer), known(cpu.brand)].filter(Boolean).join(' '), cores ? `${cores} core${cores === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
  const system_ = [known(os.distro), known(os.release)].filter(Boolean).join(' ') + (os.arch ? ` (${os.arch})` : '');
  const memory = facts.memoryBytes > 0 ? `${Math.round(facts.memoryBytes / 1024 ** 3)} GB memory` : '';
  return [box && `${box}${system.virtual ? ' (virtual machine)' : ''}`, processor, system_.trim(), memory].filter(Boolean).join('; ');
}

// CommonJS in the worker (eval): systeminformation is required by its resolved path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const si = require(workerData.module);
Promise.all([si.system(), si.cpu(), si.osInfo(), si.mem()]).then(
  ([system, cpu, os, mem]) => parentPort.postMessage({ system, cpu, os, memoryBytes: mem.total }),
  (cause) => parentPort.postMessage({ error: String((cause && cause.message) || cause) }),
);
`;
