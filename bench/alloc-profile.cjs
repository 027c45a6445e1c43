/* eslint-disable @typescript-eslint/no-require-imports -- a `--require` preload is CommonJS */
// Where the agent's main thread allocates (all allocations, also those the next GC collects: what
// makes scavenges and promotions), for issue 40 point 2. Preloaded into the agent:
//   BENCH_NODE_FLAGS="--require $PWD/bench/alloc-profile.cjs" ALLOC_AT=30 ALLOC_FOR=10 \
//     ALLOC_OUT=/tmp/alloc.heapprofile node bench/opcua.mjs …   (ALLOC_PROMOTED=1: only what outlived scavenges)
// samples allocations from second ALLOC_AT for ALLOC_FOR seconds (V8's sampling heap profiler with
// collected objects included) and writes the profile; `node bench/alloc-summary.mjs FILE` sums it.
const fs = require('node:fs');
const inspector = require('node:inspector');
const wt = require('node:worker_threads');

if (wt.isMainThread) {
  const at = Number(process.env.ALLOC_AT ?? 30) * 1000;
  const span = Number(process.env.ALLOC_FOR ?? 10) * 1000;
  const out = process.env.ALLOC_OUT ?? '/tmp/tributary-alloc.heapprofile';
  setTimeout(() => {
    const session = new inspector.Session();
    session.connect();
    // ALLOC_PROMOTED=1: leave out what scavenges collected, i.e. keep what outlived the young
    // generation (what is promoted and makes the old generation's collections).
    const params = { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.ALLOC_PROMOTED !== '1' };
    session.post('HeapProfiler.startSampling', params, () => {
      setTimeout(() => {
        session.post('HeapProfiler.stopSampling', (error, result) => {
          if (!error) fs.writeFileSync(out, JSON.stringify(result.profile));
          session.disconnect();
        });
      }, span).unref();
    });
  }, at).unref();
}
