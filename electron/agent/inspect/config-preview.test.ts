/**
 * POST /v1/config/preview for file receivers: the first rows of the first file each stream matches,
 * through the parser and the transforms, from an unsaved configuration; nothing committed, no
 * progress moved (the same files are read in full once the configuration is saved).
 */
import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../testing/file-plant.js';
import { CYCLE_HEADER, cycleRows, previewFixture } from '../../testing/preview-fixture.js';

const { preview, server } = previewFixture();

describe('preview of a localfile receiver', () => {
  it('shows the first rows of the first matching file, local times in UTC and renamed by the transform, and moves nothing', async () => {
    const plant = filePlant({ localtz: 'Europe/Berlin', transforms: [{ transform_name: 'names', transform_type: 'rename', filter_stream: ['Press_1:cycle'], renames: { cyc_t: 'cycle_time_s' } }] });
    plant.write('press_2.csv', CYCLE_HEADER + cycleRows(3));
    plant.write('press_1.csv', CYCLE_HEADER + cycleRows(40));
    const { status, json } = await preview({ configuration: plant.config, rows: 5 });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const press = json.response.streams[0];
    expect(json.response).toMatchObject({ receiver: 'plant', protocol: 'localfile' });
    expect(press.source).toBe(`${plant.drop}/press_1.csv`);
    expect(press.columns).toEqual(['time', 'part', 'cycle_time_s']);
    expect(press.records).toHaveLength(5);
    // 06:00 in Berlin in January is 05:00 UTC.
    expect(press.records[0]).toEqual({ timestamp: '2026-01-05T05:00:00.000000Z', fieldvalues: { time: '2026-01-05T05:00:00.000000Z', part: 'P0', cycle_time_s: 29 } });
    expect(press.problems).toEqual([]);
    // The oven stream has no file yet: said, not an error.
    expect(json.response.streams[1]).toMatchObject({ asset: 'Oven_2', source: null, records: [], problems: [{ level: 'warning', message: 'No file matches ["oven_*.csv"] yet: there is nothing to preview.' }] });

    // Nothing was committed: saving the configuration reads both files in full.
    expect(fs.existsSync(plant.outbox)).toBe(false);
    expect((await (await server()).call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 43, 20_000, 'every row after the save');
  });

  it('lists skipped bad lines and a missing time column as problems of the stream', async () => {
    const plant = filePlant();
    plant.write('press_1.csv', `${CYCLE_HEADER}2026-01-05 06:00:00,P1,29\nbroken line\n2026-01-05 06:00:02,P2,30\n`);
    plant.write('oven_1.csv', 'when,zone1\n2026-01-05 06:00:00,180\n');
    const { json } = await preview({ configuration: plant.config });
    const [press, oven] = json.response.streams;
    expect(press.records.map((r: { fieldvalues: { part: string } }) => r.fieldvalues.part)).toEqual(['P1', 'P2']);
    expect(press.problems).toEqual([expect.objectContaining({ level: 'warning', message: 'Line 3 has 1 cells, the header has 3. (bad_lines_action skips it)' })]);
    expect(oven.records).toEqual([]);
    expect(oven.problems).toEqual([expect.objectContaining({ level: 'error', message: 'The time stamp column "time" is not in the header (line 1). Columns: when, zone1.' })]);
  });

  it('says when the folder does not exist, refuses a receiver with errors (422) and an unknown one (404)', async () => {
    const plant = filePlant();
    fs.rmSync(plant.drop, { recursive: true });
    const missing = (await preview({ configuration: plant.config })).json.response.streams[0];
    expect(missing.problems).toEqual([expect.objectContaining({ level: 'error', message: `The folder ${plant.drop} does not exist: nothing is read from it until that changes.` })]);

    const broken = structuredClone(plant.config) as { data_receiver: { poll_interval: unknown }[] };
    broken.data_receiver[0]!.poll_interval = 0;
    const refused = await preview({ configuration: broken });
    expect(refused.status).toBe(422);
    expect(refused.json.response.violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'poll_interval'], level: 'error' })]);

    const unknown = await preview({ configuration: plant.config, receiver: 'nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.text).toBe('The configuration has no receiver named "nowhere".');
    // Without a configuration, the saved one is previewed (what an operator may do): none yet here.
    const nothingSaved = await preview({ rows: 5 });
    expect(nothingSaved.status).toBe(404);
    expect(nothingSaved.json.error.text).toBe('Nothing is saved yet: there is no saved configuration to preview.');
    fs.mkdirSync(plant.drop, { recursive: true });
    plant.write('press_1.csv', CYCLE_HEADER + cycleRows(3));
    expect((await (await server()).call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    const saved = await preview({ rows: 2 });
    expect(saved.status).toBe(200);
    expect(saved.json.response.streams[0].records).toHaveLength(2);
  });

  it('previews a receiver whose transmit still holds template prompts', async () => {
    const plant = filePlant();
    plant.write('press_1.csv', CYCLE_HEADER + cycleRows(2));
    const config = structuredClone(plant.config) as { data_transmit: unknown[] };
    config.data_transmit = [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: '<fill in: https://<tenant>.<domain>>', API_key: '<fill in: edge API key>', API_key_ID: '<fill in: edge API key id>' }];
    const { status, json } = await preview({ configuration: config, receiver: 'plant' });
    expect(status).toBe(200);
    expect(json.response.streams[0].records).toHaveLength(2);
  });

  it('previews an mqtt receiver by listening: a broker it cannot reach is a problem of each stream, not a failure', async () => {
    const configuration = {
      data_receiver: [{ data_receiver_name: 'machines', protocol: 'mqtt', connections: [{ host: '127.0.0.1', port: 1 }], streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: 'plant1/press1/#' }] }],
      transforms: [],
      data_transmit: [],
    };
    const { status, json } = await preview({ configuration, rows: 5 });
    expect(status).toBe(200);
    expect(json.response).toMatchObject({ receiver: 'machines', protocol: 'mqtt' });
    expect(json.response.streams).toEqual([
      {
        asset: 'Press_1', stream_type: 'cycle', source: 'mqtt://127.0.0.1:1, topic plant1/press1/#', columns: [], records: [],
        problems: [expect.objectContaining({ level: 'error', message: expect.stringMatching(/^Cannot reach the broker at mqtt:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/) })],
      },
    ]);
  });

  it('answers when a port accepts the connection and closes it without speaking MQTT (no endless wait)', async () => {
    const silent = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const configuration = {
        data_receiver: [{ data_receiver_name: 'machines', protocol: 'mqtt', connections: [{ host: '127.0.0.1', port, timeout: 5 }], streams: [{ asset: 'Mixer_3', stream_type: 'state', topic: 'spBv1.0/Line3/DDATA/edge-9/Mixer_3', payload_format: 'sparkplug_b' }] }],
        transforms: [],
        data_transmit: [],
      };
      const { status, json } = await preview({ configuration, rows: 5 });
      expect(status).toBe(200);
      expect(json.response.streams[0]).toMatchObject({ records: [], problems: [{ level: 'error', message: expect.stringContaining(`mqtt://127.0.0.1:${port}`) }] });
    } finally {
      silent.close();
    }
  });
});
