// The benchmarks run from one command on a fresh machine (CI runs them small): they do not time
// anything here, they must only work and report what docs/performance.md reads from them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// --force: CI runs them small on a busy machine (the benches refuse a load average above 1.5).
const run = (script: string, args: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'bench', script), ...args, ...(script.endsWith('worker-cpu.mjs') ? [] : ['--force'])], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });

/** Node-RED is installed on demand (`npm ci --prefix bench/peers/node-red`); pandas comes with the test tools (npm run services). */
const nodeRedInstalled = () => fs.existsSync(path.join(ROOT, 'bench/peers/node-red/node_modules/node-red/red.js'));

describe('bench', () => {
  it('runs end to end against the real server and reports every measure', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-test-')), 'result.json');
    run('run.mjs', ['--rows', '20000', '--files', '2', '--single-file-rows', '10000', '--mqtt-rows', '5000', '--out', out]);
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(report.machine.cpus).toBeGreaterThan(0);
    // Every row was acknowledged by the ingest server, or the run would not have ended; each
    // multi-file size runs with the data-quality checks off, then on (--quality both, the default);
    // the single big file comes after them, with the checks on.
    const sizes = report.results.map((r: { rows: number; files: number; quality_checks: string }) => [r.rows, r.files, r.quality_checks]);
    expect(sizes).toEqual([[20_000, 2, 'off'], [20_000, 2, 'on'], [10_000, 1, 'on']]);
    for (const result of report.results)
      for (const key of ['seconds', 'rows_per_second', 'mb_per_second', 'cpu_seconds_per_million_rows', 'bench_cpu_seconds_per_million_rows', 'peak_rss_mb', 'api_p99_ms'])
        expect(result[key], key).toBeGreaterThan(0);
    expect(report.breakdown.map((stage: { stage: string }) => stage.stage)).toEqual([
      'read', 'parse', 'records', 'transform', 'encode (BSON)', 'compress', 'buffer (commit, read, delete)', 'KPI history', 'encrypt', 'upload (incl. server verify)',
    ]);
    const shares = report.breakdown.reduce((sum: number, stage: { share_percent: number }) => sum + stage.share_percent, 0);
    expect(shares).toBeCloseTo(100, 0);
    // The MQTT run (npm run services starts its broker): every message format, every row counted.
    expect(report.mqtt.map((r: { message_format: string; rows: number }) => [r.message_format, r.rows])).toEqual([
      ['record', 5000],
      ['array', 5000],
      ['sparkplug_b', 5000],
    ]);
    for (const r of report.mqtt) expect(r.rows_per_second).toBeGreaterThan(0);
  }, 120_000);

  // The peers of issue 58 (docs/performance.md, Peers): the pandas pipeline always (Debian's pandas,
  // cryptography and bson are test tools), the Node-RED flow where it was installed.
  it('runs Tributary and its peers on one file, each delivering every row', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-test-')), 'peers.json');
    const peers = ['tributary', 'pandas', ...(nodeRedInstalled() ? ['node-red'] : [])];
    run('peers.mjs', ['--rows', '5000', '--peers', peers.join(','), '--out', out]);
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(report.results.map((r: { peer: string; rows_delivered: number }) => [r.peer, r.rows_delivered])).toEqual(peers.map((peer) => [peer, 5000]));
    for (const r of report.results.slice(1)) expect(r.tributary_ratio).toBeGreaterThan(0);
  }, 120_000);

  it('sends hostile bodies to the real server and reports how long its event loop was blocked', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-test-')), 'hostile.json');
    run('hostile-bodies.mjs', ['--out', out]);
    const { results } = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(results.map((r: { status: number }) => r.status)).toEqual([413, 422, 413, 500, 400, 200, 200, 200]);
    for (const result of results) for (const key of ['ms', 'max_event_loop_block_ms', 'server_cpu_ms']) expect(result[key], key).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('measures the idle agent: the running demo and the demo configuration with nothing to read', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-test-')), 'idle.json');
    run('idle.mjs', ['--seconds', '2', '--settle', '1', '--out', out]);
    const { results } = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(results.map((r: { phase: string }) => r.phase)).toEqual(['demo', 'quiet']);
    for (const result of results) {
      expect(result.cpu_percent_of_one_core, result.phase).toBeGreaterThanOrEqual(0);
      expect(result.rss_mb, result.phase).toBeGreaterThan(0);
    }
  }, 120_000);

  it('measures what managing a fleet of simulated agents costs the desk\'s agent', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-test-')), 'fleet.json');
    run('fleet.mjs', ['--agents', '5', '--seconds', '6', '--settle', '1', '--out', out]);
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(report.results.map((r: { phase: string; agents: number }) => [r.phase, r.agents])).toEqual([['alone', 0], ['fleet', 5]]);
    expect(report.reachable_agents).toBe(5);
    for (const result of report.results) expect(result.status_p99_ms, result.phase).toBeGreaterThan(0);
    expect(report.results[1].polls_per_second).toBeGreaterThan(0);
    expect(report.dead_agent_unreachable_after_ms).toBeGreaterThan(0);
  }, 120_000);

  it('reads a small OPC UA line with source times stamped when read (the default) or at each change, and reports every measure', () => {
    // Its test server is test-only code, built apart from the product (dist-testing/).
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'electron/tsconfig.testing.json'], { cwd: ROOT, stdio: 'ignore', timeout: 120_000 });
    const measure = (args: string[]) => {
      const written = /written (\S+)/.exec(run('opcua.mjs', ['--tags', '200', '--machines', '2', '--seconds', '3', ...args]))?.[1];
      expect(written).toBeDefined();
      const file = path.join(ROOT, written!);
      const result = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.rmSync(file);
      expect(result.tags).toBe(200);
      for (const key of ['values_per_s', 'records_per_s', 'agent_cpu_percent_of_one_core', 'agent_peak_rss_mb']) expect(result[key], key).toBeGreaterThan(0);
      expect(result.latency_ms_source_to_capture.p99, 'source → capture').toBeGreaterThanOrEqual(0);
      return result;
    };
    const read = measure([]);
    expect(read.source_time).toBe('read');
    // No split when the server stamps a value as it samples it (JSON has no NaN: null).
    expect(read.latency_ms_source_to_server_sampling.p50).toBeNull();
    const change = measure(['--source-time', 'change']);
    expect(change.source_time).toBe('change');
    expect(change.latency_ms_source_to_server_sampling.p50).toBeGreaterThanOrEqual(0);
    expect(change.latency_ms_server_sampling_to_capture.p50).toBeGreaterThanOrEqual(0);
  }, 240_000);

  it('times one parse worker alone', () => {
    const table = run('worker-cpu.mjs', ['20000', '1']);
    expect(table).toMatch(/20000\s*│\s*[\d.]+\s*│\s*\d+\s*│\s*[\d.]+/);
  }, 60_000);
});
