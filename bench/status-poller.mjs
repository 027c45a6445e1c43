// The API latency probe of bench/run.mjs, in a thread of its own: GET /v1/status every
// `intervalMs`, timed from here once its first request is done. Apart from the bench's ingest
// server, whose verification of each upload (decrypting, gunzip, counting) holds the bench's main
// thread for milliseconds at a time and would be counted as the agent's latency; a console in a
// browser does not wait for it either.
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, intervalMs } = workerData;
const latencies = [];
let polling = true;
parentPort.on('message', () => {
  polling = false;
});
const status = async () => (await fetch(`${url}/v1/status`, { headers })).json();
// The thread's first request (loading fetch, opening the connection) is not the agent's latency.
await status();
parentPort.postMessage('ready');
while (polling) {
  const t0 = performance.now();
  await status();
  latencies.push(performance.now() - t0);
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
parentPort.postMessage(latencies);
