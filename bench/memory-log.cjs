/* eslint-disable @typescript-eslint/no-require-imports -- a `--require` preload is CommonJS (it runs in workers too) */
// Memory of every thread of a benchmark's agent, for finding where RSS goes (docs/performance.md,
// issue 40 point 2). Preloaded into the agent and its worker threads:
//   BENCH_NODE_FLAGS="--require $PWD/bench/memory-log.cjs" MEMLOG=/tmp/mem.log node bench/opcua.mjs …
// appends one JSON line a second per thread (threadId, MiB: rss, heap total/used, external, V8 heap
// spaces used/size). SNAP_AT=30,60 also writes heap snapshots of the main thread at those seconds
// (beside MEMLOG); a snapshot stops the agent for seconds, so that run's other numbers are not valid.
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const wt = require('node:worker_threads');

const out = process.env.MEMLOG || '/tmp/tributary-mem.log';
const started = Date.now();
const mib = (bytes) => Math.round(bytes / 1048576);
setInterval(() => {
  const m = process.memoryUsage();
  const spaces = v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0);
  const sp = Object.fromEntries(
    spaces.map((s) => [s.space_name.replace('_space', ''), `${mib(s.space_used_size)}/${mib(s.space_size)}`]),
  );
  const t = Math.round((Date.now() - started) / 1000);
  const heap = { heapTotal: mib(m.heapTotal), heapUsed: mib(m.heapUsed), ext: mib(m.external) };
  const line = { tid: wt.threadId, t, rss: mib(m.rss), ...heap, sp };
  fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
}, 1000).unref();
if (wt.isMainThread && process.env.SNAP_AT) {
  for (const at of process.env.SNAP_AT.split(',')) {
    const file = path.join(path.dirname(out), `snap-${at}.heapsnapshot`);
    setTimeout(() => v8.writeHeapSnapshot(file), Number(at) * 1000).unref();
  }
}
