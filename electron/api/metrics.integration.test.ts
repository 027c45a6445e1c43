/**
 * GET /metrics read by an independent parser: Python's prometheus_client (Debian's
 * python3-prometheus-client, installed by `npm run services`), the way a Prometheus server reads it.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilRead } from '../testing/agent-state.js';
import { filePlant } from '../testing/file-plant.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Sample {
  family: string;
  type: string;
  name: string;
  labels: Record<string, string>;
  value: number | null;
}

const PARSE = [
  'import json, math, sys',
  'from prometheus_client.parser import text_string_to_metric_families',
  'out = []',
  'for family in text_string_to_metric_families(sys.stdin.read()):',
  '    for s in family.samples:',
  '        out.append({"family": family.name, "type": family.type, "name": s.name, "labels": s.labels, "value": s.value if math.isfinite(s.value) else None})',
  'print(json.dumps(out))',
].join('\n');

async function scrape(started: TestServer): Promise<Sample[]> {
  const response = await fetch(`${started.url}/metrics`, { headers: { Authorization: `Bearer ${started.token}` } });
  expect(response.status).toBe(200);
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', PARSE], { input: await response.text() }).toString()) as Sample[];
}

const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

const HEADER = 'time,part,force\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 07:00:${String((from + k) % 60).padStart(2, '0')},${from + k},1.5\n`).join('');
const PRESS = { asset: 'Press_1', stream_type: 'cycle' };

describe('GET /metrics parsed by prometheus_client', () => {
  it('has the agent, stream and transmit metrics and the process metrics, and its counters grow after a dropped file', async () => {
    const plant = filePlant();
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    plant.write('press_1.csv', HEADER + rows(0, 40));
    await waitUntilRead(server, 'plant', [{ stream: PRESS, file: path.join(plant.drop, 'press_1.csv') }]);
    const before = await scrape(server);
    const streamLabels = { receiver: 'plant', asset: 'Press_1', stream_type: 'cycle' };
    expect(before.find((s) => s.name === 'tributary_records_read_total')?.type).toBe('counter');
    expect(value(before, 'tributary_records_read_total', streamLabels)).toBe(40);
    expect(value(before, 'tributary_records_sent_total', { transmit: 'archive' })).toBe(40);
    expect(value(before, 'tributary_backlog_records', { transmit: 'archive' })).toBe(0);
    expect(value(before, 'tributary_upload_errors_total', { transmit: 'archive' })).toBe(0);
    expect(value(before, 'tributary_last_record_timestamp_seconds', { asset: 'Press_1', stream_type: 'cycle' })).toBe(Date.UTC(2026, 0, 5, 7, 0, 39) / 1000);
    expect(value(before, 'tributary_service_up', { service: 'receiver:plant' })).toBe(1);
    expect(value(before, 'tributary_service_up', { service: 'transmit:archive' })).toBe(1);
    expect(before.some((s) => s.family === 'process_cpu_seconds' && s.type === 'counter')).toBe(true);
    expect(before.some((s) => s.name === 'process_resident_memory_bytes')).toBe(true);

    plant.write('press_2.csv', HEADER + rows(0, 25));
    await waitUntilRead(server, 'plant', [{ stream: PRESS, file: path.join(plant.drop, 'press_2.csv') }]);
    const after = await scrape(server);
    expect(value(after, 'tributary_records_read_total', streamLabels)).toBe(65);
    expect(value(after, 'tributary_records_sent_total', { transmit: 'archive' })).toBe(65);
    expect(value(after, 'tributary_last_record_timestamp_seconds', { asset: 'Press_1', stream_type: 'cycle' })).toBe(Date.UTC(2026, 0, 5, 7, 0, 24) / 1000);

    await server.call('POST', '/v1/agent/stop');
    const stopped = await scrape(server);
    expect(value(stopped, 'tributary_service_up', { service: 'receiver:plant' })).toBe(0);
    expect(value(stopped, 'tributary_agent_up', {})).toBe(0);
  });
});
