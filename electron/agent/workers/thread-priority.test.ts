import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BULK_THREAD_NICE } from './thread-priority.js';
import { workerScript } from './worker-script.js';

const niceOfThreads = () =>
  fs.readdirSync(`/proc/${process.pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));

const BULK_THREADS = {
  'a parse thread': workerScript(new URL('../receivers/file-source/', import.meta.url).href + 'x.js', 'parse-worker.js'),
  'an upload encode thread': workerScript(new URL('../transmits/remotedatapost/', import.meta.url).href + 'x.js', 'encode-worker.js'),
};

describe('bulk threads yield to the API thread', () => {
  for (const [name, script] of Object.entries(BULK_THREADS)) {
    it.runIf(process.platform === 'linux')(`${name} runs at nice ${BULK_THREAD_NICE}, and only its own thread`, async () => {
      const before = niceOfThreads().filter((nice) => nice === BULK_THREAD_NICE).length;
      const worker = new Worker(script);
      try {
        await new Promise((resolve) => worker.once('online', resolve));
        let after = before;
        for (let i = 0; i < 50 && after === before; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          after = niceOfThreads().filter((nice) => nice === BULK_THREAD_NICE).length;
        }
        expect(after).toBe(before + 1);
        expect(niceOfThreads()[0]).toBe(0);
      } finally {
        await worker.terminate();
      }
    });
  }
});
