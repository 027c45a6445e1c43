// One end-to-end run of Tributary: a CSV drop (bench-server.mjs prepareDrop) into a localfile
// receiver, convert_timestamps, an encrypted remotedatapost to a loopback ingest server, timed from
// the drop until the ingest server has every row (bench/run.mjs; bench/peers.mjs runs it against
// the same file as its peers).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { prepareDrop, procStats, sleep, startBenchServer, threadCpuPerMillion, threadStats } from './bench-server.mjs';

export const KEY_ID = 'bench@tributary.local';
export const API_KEY = 'bench-api-key';
/** Records per upload: remotedatapost's max_request_records in the bench (its default). */
export const BATCH_RECORDS = 3000;

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Turns every check off: no digest is made, the watch only notes arrivals. */
const QUALITY_OFF = [{ filter_stream: ['*'], gap: false, clock: false, schema: false }];

/**
 * `rows` rows in `files` files, data-quality checks `quality` ('on' or 'off'); `profile`: a folder
 * for V8 CPU profiles of the server; `source`: an existing CSV of `rows` rows to drop (one file).
 */
export async function endToEnd(rows, files, { quality = 'on', profile, source } = {}) {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-'));
  const csv = prepareDrop(dataDirectory, rows, files, { source });
  const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
  const server = await startBenchServer(dataDirectory, { nodeFlags: profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [] });
  await server.configure({
    data_receiver: [csv.receiver],
    transforms: [{ transform_name: 'tz', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'UTC' }],
    data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 60, poll_interval: 1, max_request_records: BATCH_RECORDS, max_buffer_mb: 16384 }],
    ...(quality === 'off' ? { data_quality: QUALITY_OFF } : {}),
  });
  // The drop arrives at a running, idle agent (as in a plant): wait until its services run and
  // their start-up (threads, folder watcher) is over, instead of timing the start-up too.
  await server.waitUntilRunning();
  await sleep(2000);
  const poller = await server.pollStatus(50);
  const before = procStats(server.pid);
  const threadsBefore = threadStats(server.pid);
  const started = performance.now();
  const benchCpu = process.cpuUsage();
  csv.deliver();
  // When the first rows reached the ingest server: the agent's look at the drop (a file is read once
  // it was the same on two looks) and its first chunk, apart from the throughput that follows.
  while (ingest.receivedCount() < rows) await sleep(ingest.receivedCount() === 0 ? 10 : 100);
  // From the drop to the moments the ingest server counted the first and the last rows (not to this
  // loop's next look).
  const firstRowsAt = ingest.firstReceivedAt();
  const seconds = (ingest.lastReceivedAt() - started) / 1000;
  const benchCpuUsed = process.cpuUsage(benchCpu);
  const latencies = await poller.stop();
  const after = procStats(server.pid);
  const threadsAfter = threadStats(server.pid);
  await server.stop();
  // Rows beyond `rows` would be duplicates (bench/peers.mjs checks that every run delivered `rows`).
  const delivered = ingest.receivedCount();
  await ingest.close();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const { bytes } = csv;
  return {
    rows,
    rows_delivered: delivered,
    files,
    quality_checks: quality,
    csv_mb: +(bytes / 1e6).toFixed(1),
    seconds: +seconds.toFixed(2),
    first_rows_seconds: +(((firstRowsAt ?? performance.now()) - started) / 1000).toFixed(2),
    rows_per_second: Math.round(rows / seconds),
    mb_per_second: +(bytes / 1e6 / seconds).toFixed(2),
    // Server CPU seconds per million rows = server CPU µs per row.
    cpu_seconds_per_million_rows: after && before ? +(((after.cpuSeconds - before.cpuSeconds) / rows) * 1e6).toFixed(2) : null,
    bench_cpu_seconds_per_million_rows: +(((benchCpuUsed.user + benchCpuUsed.system) / 1e6 / rows) * 1e6).toFixed(2),
    peak_rss_mb: after ? Math.round(after.peakRss / 1e6) : null,
    api_p50_ms: +percentile(latencies, 50).toFixed(1),
    api_p99_ms: +percentile(latencies, 99).toFixed(1),
    api_samples: latencies.length,
    threads: threadCpuPerMillion(threadsBefore, threadsAfter, rows),
  };
}

