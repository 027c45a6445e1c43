import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { WorkerClient } from './worker-client.js';

type Request = { id: number; kind: 'echo' | 'crash'; value?: number; delayMs?: number };
type Response = { id: number; value?: number; thread: number };

const SCRIPT = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', (request) => {
  if (request.kind === 'crash') throw new Error('boom');
  setTimeout(() => parentPort.postMessage({ id: request.id, value: request.value, thread: threadId }), request.delayMs ?? 0);
});
`;

const logger = { info() {}, warn() {}, error() {}, debug() {}, child() { return logger; } } as never;
let client: WorkerClient<Request, Response> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

function newClient() {
  const script = path.join(tempDirectory('tributary-worker-'), 'worker.mjs');
  fs.writeFileSync(script, SCRIPT);
  client = new WorkerClient<Request, Response>(script, 'test', logger);
  return client;
}

describe('WorkerClient', () => {
  it('fails the requests of a thread that died, and serves the next ones on a new thread that the old one’s exit does not disturb', async () => {
    const worker = newClient();
    const first = await worker.request({ kind: 'echo', value: 1 });
    // Right after the failure (before the dead thread's exit event), the next request starts a new thread.
    const next = worker.request({ kind: 'crash' }).then(
      () => undefined,
      (error: Error) => ({ error, after: worker.request({ kind: 'echo', value: 2, delayMs: 300 }) }),
    );
    const failed = await next;
    expect(failed?.error.message).toMatch(/boom/);
    const second = await failed!.after;
    expect(second.value).toBe(2);
    expect(second.thread).not.toBe(first.thread);
    // And the new thread is still the one in use.
    expect((await worker.request({ kind: 'echo', value: 3 })).thread).toBe(second.thread);
  });

  it('starts its thread ahead of the first request, once', async () => {
    const worker = newClient();
    worker.start();
    worker.start();
    const a = await worker.request({ kind: 'echo', value: 1 });
    const b = await worker.request({ kind: 'echo', value: 2 });
    expect(a.thread).toBe(b.thread);
  });
});
