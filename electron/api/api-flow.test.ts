import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntilRead } from '../testing/agent-state.js';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { FLOW_HEADER, PRESS, flowRows, streamFlowFixture, streamStats } from '../testing/stream-flow-fixture.js';
import { tempDirectory } from '../testing/test-host.js';

const { servers, startPlant } = streamFlowFixture();

describe('GET /v1/streams stats', () => {
  it('counts the records of a dropped file, its newest record and the rate; a stream with nothing read shows zeros', async () => {
    const plant = filePlant();
    const started = await startPlant(plant);
    plant.write('press_1.csv', FLOW_HEADER + flowRows(0, 2500));
    await waitUntilRead(started, 'plant', [{ stream: PRESS, file: path.join(plant.drop, 'press_1.csv') }]);
    const delivered = plant.delivered('Press_1', 'cycle');
    expect(delivered).toHaveLength(2500);
    const stats = await streamStats(started, 'Press_1');
    expect(stats.records_read).toBe(delivered.length);
    expect(stats.last_record_timestamp).toBe('2026-01-05T06:41:39.000000Z');
    expect(Date.now() - Date.parse(stats.last_record_at)).toBeLessThan(60_000);
    expect(stats.records_per_minute).toBeGreaterThan(0);
    expect(stats.reading).toBeNull();
    expect(await streamStats(started, 'Oven_2')).toEqual({
      records_read: 0, last_record_at: null, last_record_timestamp: null, records_per_minute: 0, reading: null, backfill: null,
      transmits: { archive: { sent: 0, waiting: 0, oldest_waiting_at: null } }, expected_every_seconds: null, expected_from: null,
    });
    await waitFor(async () => (await streamStats(started, 'Press_1')).transmits.archive.sent === 2500, 10_000, 'Press_1 sent 2500 to archive');
    expect((await streamStats(started, 'Press_1')).transmits).toEqual({ archive: { sent: 2500, waiting: 0, oldest_waiting_at: null } });

    const archive = (await started.call('GET', '/v1/status')).json.response.last_data_transmit.archive;
    expect(archive).toMatchObject({ records_sent: 2500, backlog_records: 0, upload_errors: 0, lag_seconds: null, drain_seconds: 0 });
    expect(archive.records_per_minute).toBeGreaterThan(0);
  });
});

describe('GET /v1/streams stats.transmits', () => {
  it('shows per transmit what waits, since when, and what was sent: a transmit that cannot deliver keeps its records waiting', async () => {
    const plant = filePlant();
    const down = { transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['Press_1:cycle'], base_url: 'http://127.0.0.1:1', API_key: 'k', API_key_ID: 'id', timeout: 2, poll_interval: 1 };
    plant.config.data_transmit.push(down as never);
    const started = await startPlant(plant);
    const before = Date.now();
    plant.write('press_1.csv', FLOW_HEADER + flowRows(0, 120));
    // Not waitUntilRead: it waits for every outbox to empty, and the cloud's never does.
    await waitFor(async () => (await streamStats(started, 'Press_1')).transmits.archive.sent === 120, 10_000, 'archive sent the press records');
    const press = await streamStats(started, 'Press_1');
    expect(press.transmits.cloud).toMatchObject({ sent: 0, waiting: 120 });
    expect(Date.parse(press.transmits.cloud.oldest_waiting_at)).toBeGreaterThanOrEqual(before - 1000);
    // The oven stream goes to archive only: the cloud transmit does not select it.
    expect(Object.keys((await streamStats(started, 'Oven_2')).transmits)).toEqual(['archive']);
    await waitFor(async () => (await started.call('GET', '/v1/status')).json.response.last_data_transmit.cloud.last_error !== null, 15_000, 'the cloud upload failed');
  });

  it('judges a stream by its expected_every_seconds when the configuration sets it', async () => {
    const plant = filePlant();
    (plant.config.data_receiver[0]!.streams[0] as Record<string, unknown>).expected_every_seconds = 900;
    const started = await startPlant(plant);
    expect(await streamStats(started, 'Press_1')).toMatchObject({ expected_every_seconds: 900, expected_from: 'configuration' });
    expect(await streamStats(started, 'Oven_2')).toMatchObject({ expected_every_seconds: null, expected_from: null });
  });
});

describe('GET /v1/history', () => {
  it('keeps records in per stream and records out and backlog per transmit per minute, across a restart', async () => {
    const plant = filePlant();
    const dataDirectory = tempDirectory();
    let started = await startPlant(plant, dataDirectory);
    plant.write('press_1.csv', FLOW_HEADER + flowRows(0, 300));
    await waitUntilRead(started, 'plant', [{ stream: PRESS, file: path.join(plant.drop, 'press_1.csv') }]);
    started = await servers.start({ dataDirectory });

    const { status, json } = await started.call('GET', '/v1/history?minutes=30');
    expect(status).toBe(200);
    const history = json.response;
    expect(Date.parse(history.end) - Date.parse(history.start)).toBe(29 * 60_000);
    const press = history.streams.find((s: any) => s.asset === 'Press_1');
    expect(press).toMatchObject({ data_receiver: 'plant', stream_type: 'cycle' });
    expect(press.points.reduce((n: number, p: any) => n + p.records_in, 0)).toBe(300);
    for (const point of press.points) expect(Date.parse(point.minute) % 60_000).toBe(0);
    const archive = history.transmits.find((t: any) => t.transmit === 'archive');
    expect(archive.points.reduce((n: number, p: any) => n + p.records_out, 0)).toBe(300);
    expect(archive.points.at(-1).backlog_records).toBe(0);
    // The counters, the newest record and what was sent come from the store: a restart keeps them.
    const kept = await streamStats(started, 'Press_1');
    expect(kept).toMatchObject({ records_read: 300, last_record_timestamp: '2026-01-05T06:04:59.000000Z', records_per_minute: 0 });
    expect(Date.now() - Date.parse(kept.last_record_at)).toBeLessThan(120_000);
    expect(kept.transmits.archive).toEqual({ sent: 300, waiting: 0, oldest_waiting_at: null });
    expect((await started.call('GET', '/v1/status')).json.response.last_data_transmit.archive.records_sent).toBe(300);
  });

  it('refuses a number of minutes outside 1..1440 with 400', async () => {
    const server = await servers.start();
    for (const minutes of ['0', '1441', 'ten']) {
      const { status, json } = await server.call('GET', `/v1/history?minutes=${minutes}`);
      expect(status).toBe(400);
      expect(json.error.text).toContain('minutes must be a whole number from 1 to 1440');
    }
    const empty = (await server.call('GET', '/v1/history')).json.response;
    expect(Date.parse(empty.end) - Date.parse(empty.start)).toBe(59 * 60_000);
    expect(empty.streams).toEqual([]);
  });
});
