import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { workerScript } from '../../workers/worker-script.js';

const niceOfThreads = () =>
  fs.readdirSync(`/proc/${process.pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));

describe('parse worker', () => {
  it.runIf(process.platform === 'linux')('runs at a lower priority than the API thread (nice 10), and only its own thread', async () => {
    const before = niceOfThreads().filter((nice) => nice === 10).length;
    const worker = new Worker(workerScript(import.meta.url, 'parse-worker.js'));
    try {
      await new Promise((resolve) => worker.once('online', resolve));
      let after = before;
      for (let i = 0; i < 50 && after === before; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = niceOfThreads().filter((nice) => nice === 10).length;
      }
      expect(after).toBe(before + 1);
      expect(niceOfThreads()[0]).toBe(0);
    } finally {
      await worker.terminate();
    }
  });
});
