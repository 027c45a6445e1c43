import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BULK_THREAD_NICE } from './thread-priority.js';
import { workerScript } from './worker-script.js';

/** The nice value of each thread of this process, by thread id (the main thread's id is the pid). */
const niceOfThreads = () =>
  new Map(fs.readdirSync(`/proc/${process.pid}/task`).map((tid) => [tid, Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16])]));

const BULK_THREADS = {
  'a parse thread': workerScript(new URL('../threads/parse-worker.ts', import.meta.url).href, 'parse-worker.js'),
  'an upload encode thread': workerScript(new URL('../threads/encode-worker.ts', import.meta.url).href, 'encode-worker.js'),
};

describe('bulk threads yield to the API thread', () => {
  for (const [name, script] of Object.entries(BULK_THREADS)) {
    it.runIf(process.platform === 'linux')(`${name} runs at nice ${BULK_THREAD_NICE}, and only its own thread`, async () => {
      const before = niceOfThreads();
      const worker = new Worker(script);
      try {
        await new Promise((resolve) => worker.once('online', resolve));
        // Threads started since (the worker's own and V8's or libuv's helpers) at the bulk nice value.
        const lowered = () => [...niceOfThreads()].filter(([tid, nice]) => !before.has(tid) && nice === BULK_THREAD_NICE);
        // The thread lowers itself once its script has loaded: up to seconds on a loaded machine.
        for (let i = 0; i < 500 && lowered().length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(lowered()).toHaveLength(1);
        expect(niceOfThreads().get(String(process.pid))).toBe(0);
      } finally {
        await worker.terminate();
      }
    });
  }
});
