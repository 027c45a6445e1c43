import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../file-source/file-reader.js';
import { INLINE_CHUNK_BYTES } from '../../workers/parse-worker-pool.js';
import { waitUntilRead } from '../../../testing/agent-state.js';
import { PRESS_HEADER, filePlant, pressRows, startPlantServer, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, tempDirectory } from '../../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rows = pressRows;
const HEADER = PRESS_HEADER;
const PRESS = { asset: 'Press_1', stream_type: 'cycle' };

async function start(plant: ReturnType<typeof filePlant>, dataDirectory = tempDirectory()) {
  server = await startPlantServer(plant, dataDirectory);
  return server;
}

describe('localfile receiver → csv transmit', () => {
  it('delivers every row of a dropped file with UTC timestamps, numbers as numbers', async () => {
    const plant = filePlant({ localtz: 'Europe/Berlin' });
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 25));
    const delivered = await waitFor(() => plant.delivered('Press_1', 'cycle').length === 25 && plant.delivered('Press_1', 'cycle'));
    expect(delivered.map((r) => r.part)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
    // 06:00 in Berlin in January is 05:00 UTC.
    expect(delivered[0]!.timestamp).toBe('2026-01-05T05:00:00.000000Z');
    expect(delivered[0]!.time).toBe('2026-01-05T05:00:00.000000Z');
    expect(delivered[3]!.force).toBe('4.5');
    expect(new Set(delivered.map((r) => r.record_id)).size).toBe(25);
    const services = (await server!.call('GET', '/v1/status')).json.response.agent.services;
    expect(services).toEqual({ 'transmit:archive': { status: 'running', health: 'ok', reason: null }, 'receiver:plant': { status: 'running', health: 'ok', reason: null } });
  });

  it('reads appended rows once, and not a half-written last line until it is complete', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 5));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 5);
    const partial = '2026-01-05 06:00:08,8,';
    plant.append('press_1.csv', rows(5, 8) + partial);
    // The agent read the grown file and committed its position right before the half-written line.
    await waitUntilRead(server!, 'plant', [{ stream: PRESS, file: path.join(plant.drop, 'press_1.csv'), unread: partial.length }]);
    expect(plant.delivered('Press_1', 'cycle')).toHaveLength(8);
    plant.append('press_1.csv', '12\n' + rows(9, 10));
    const delivered = await waitFor(() => plant.delivered('Press_1', 'cycle').length === 10 && plant.delivered('Press_1', 'cycle'));
    expect(delivered.map((r) => r.part)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(delivered[8]!.force).toBe('12');
  });

  it('reads a file that a logger appends to all the time while it keeps growing', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER);
    let next = 0;
    const started = Date.now();
    // A row every 100 ms: the file is never the same on two looks, and each change must not postpone the next look.
    const appending = setInterval(() => plant.append('press_1.csv', rows(next, ++next)), 100);
    try {
      await waitFor(() => plant.delivered('Press_1', 'cycle').length >= 5, 4000, 'rows while the file keeps changing');
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      clearInterval(appending);
    }
  });

  it('reads a rewritten file again from the start', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 10));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 10);
    plant.write('press_1.csv', HEADER + rows(100, 103));
    const delivered = await waitFor(() => plant.delivered('Press_1', 'cycle').length === 13 && plant.delivered('Press_1', 'cycle'));
    expect(delivered.slice(10).map((r) => r.part)).toEqual(['100', '101', '102']);
  });

  it('does not read a rotated (renamed) file twice', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 20));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 20);
    fs.renameSync(path.join(plant.drop, 'press_1.csv'), path.join(plant.drop, 'press_1_archived.csv'));
    plant.append('press_1_archived.csv', rows(20, 22));
    plant.write('press_2.csv', HEADER + rows(50, 52));
    await waitUntilRead(server!, 'plant', [
      { stream: PRESS, file: path.join(plant.drop, 'press_1_archived.csv') },
      { stream: PRESS, file: path.join(plant.drop, 'press_2.csv') },
    ]);
    expect(plant.delivered('Press_1', 'cycle').map((r) => r.part).sort((a, b) => Number(a) - Number(b))).toEqual([...Array.from({ length: 22 }, (_, i) => String(i)), '50', '51']);
  });

  it('marks the streams while the folder is missing and reads it once it appears', async () => {
    const plant = filePlant();
    fs.rmSync(plant.drop, { recursive: true });
    await start(plant);
    const marker = await waitFor(async () => {
      const streams = (await server!.call('GET', '/v1/streams')).json.response;
      return streams[0].markers.find((m: { category: string }) => m.category === 'source_unavailable');
    });
    expect(marker).toMatchObject({ component: 'plant', component_type: 'Receiver', level: 'error' });
    expect(marker.message).toMatch(/does not exist/);
    fs.mkdirSync(plant.drop);
    plant.write('press_1.csv', HEADER + rows(0, 2));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 2);
    const streams = (await server!.call('GET', '/v1/streams')).json.response;
    expect(streams[0].markers.filter((m: { category: string }) => m.category === 'source_unavailable')).toEqual([]);
  });

  it('skips malformed lines with a marker under bad_lines_action warn, and stops the file under error', async () => {
    const plant = filePlant({ parse: { bad_lines_action: 'warn' } });
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 2) + 'garbage line with, too, many, cells\n' + rows(2, 4));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 4);
    const streams = (await server!.call('GET', '/v1/streams')).json.response;
    expect(streams[0].markers.find((m: { category: string }) => m.category === 'bad_lines')?.message).toMatch(/line 4/);

    await server!.close();
    const strict = filePlant({ parse: { bad_lines_action: 'error' } });
    await start(strict);
    strict.write('press_1.csv', HEADER + rows(0, 2) + 'garbage line with, too, many, cells\n' + rows(2, 4));
    const marker = await waitFor(async () => (await server!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'parse_error'));
    expect(marker.level).toBe('error');
    expect(marker.message).toMatch(/line 4/);
    expect(strict.delivered('Press_1', 'cycle')).toHaveLength(2);
  });

  it('skips a line longer than 16 MiB as a bad line without exhausting memory, and reads on', async () => {
    const plant = filePlant({ parse: { bad_lines_action: 'warn' } });
    await start(plant);
    const huge = `${'x'.repeat(MAX_LINE_BYTES + 1024 * 1024)}\n`;
    plant.write('press_1.csv', HEADER + rows(0, 2) + huge + rows(2, 4));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 4, 30_000, 'the rows around the long line');
    const streams = (await server!.call('GET', '/v1/streams')).json.response;
    expect(streams[0].markers.find((m: { category: string }) => m.category === 'bad_lines')?.message).toMatch(/line 4: Line 4 is longer than 16 MiB/);
    expect((await server!.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('reads a few appended rows on the main thread and more in a parse thread, and its log lines say which', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 2));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 2);
    // More than INLINE_CHUNK_BYTES to read: a parse thread's work, also after its first chunk (the
    // header and a few rows, HEADER_CHUNK_BYTES in threads/chunk-handler.ts).
    const more = HEADER + rows(2, 3002);
    expect(more.length).toBeGreaterThan(3 * INLINE_CHUNK_BYTES);
    plant.write('press_2.csv', more);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 3002);
    // A parse thread's log line travels to the main thread after its commit: it may land just after
    // the rows are delivered, so wait for it rather than read the log once.
    const parsed = / \| parse:\d+ \| receiver:plant \| INFO \| .*press_2\.csv: 3000 records read$/;
    let lines: string[] = [];
    await waitFor(async () => {
      lines = (await server!.call('GET', '/v1/log/stream?lines=200')).json.response;
      return lines.some((l) => parsed.test(l));
    }, 15_000, 'the parse thread\'s log line');
    expect(lines.filter((l) => / \| main \| receiver:plant \| INFO \| .*press_1\.csv: 2 records read$/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => parsed.test(l))).toHaveLength(1);
  });

  it('marks the stream when the parser options do not fit the file (time stamp column missing)', async () => {
    const plant = filePlant({ parse: { parse_timestamps: [{ field_name: 'stamp', format: '%Y-%m-%d %H:%M:%S' }] } });
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 3));
    const marker = await waitFor(async () => (await server!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'parse_error'));
    expect(marker).toMatchObject({ component: 'plant', level: 'error', asset: 'Press_1', stream_type: 'cycle' });
    expect(marker.message).toMatch(/stamp/);
    expect((await server!.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    expect(plant.delivered('Press_1', 'cycle')).toEqual([]);
  });
});
