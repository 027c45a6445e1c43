import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import type { ConsoleServer } from '../fixtures/console-server.js';

export const CLOUD_KEY_ID = 'line@tributary.local';
export const CLOUD_KEY = 'e2e-api-key-not-secret';

/**
 * A line with two streams in a drop folder beside the agent's data: the press goes to `cloud` (an
 * upload target, the ingest server) and to the local `archive`; the oven to the archive only.
 */
export function deliveryPlant(server: ConsoleServer, cloudUrl: string) {
  const drop = path.join(server.dataDirectory, '..', `${path.basename(server.dataDirectory)}-drop`);
  fs.mkdirSync(drop, { recursive: true });
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'line',
        protocol: 'localfile',
        poll_interval: 1,
        connections: [{ root_path: drop }],
        streams: [
          { asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] },
          { asset: 'Oven_2', stream_type: 'process', file_filter: ['oven_*.csv'], expected_every_seconds: 3600 },
        ],
        parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { localtz: 'UTC', parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
      },
    ],
    transforms: [],
    data_transmit: [
      { transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['Press_1:cycle'], base_url: cloudUrl, API_key: CLOUD_KEY, API_key_ID: CLOUD_KEY_ID, timeout: 2, poll_interval: 1 },
      { transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: path.join(server.dataDirectory, 'outbox'), poll_interval: 1 },
    ],
  };
  /** A file of `rows` records, one second apart, the newest `newestSecondsAgo` old. */
  const drops = (name: string, rows: number, newestSecondsAgo = 0) => {
    const newest = Date.now() - newestSecondsAgo * 1000;
    const lines = Array.from({ length: rows }, (_, i) => `${new Date(newest - (rows - 1 - i) * 1000).toISOString().slice(0, 19).replace('T', ' ')},${i}\n`);
    fs.writeFileSync(path.join(drop, name), `time,value\n${lines.join('')}`);
  };
  const cleanUp = () => fs.rmSync(drop, { recursive: true, force: true });
  return { drop, config, drops, cleanUp };
}

/** Saves a configuration through the API, as the editor would. */
export async function saveConfig(request: APIRequestContext, server: ConsoleServer, config: unknown): Promise<void> {
  const saved = await request.post(`${server.origin}/v1/config`, { headers: { Authorization: `Bearer ${server.token}` }, data: config });
  const body = await saved.json();
  if (!body.success) throw new Error(`The configuration was not saved: ${JSON.stringify(body.response)}`);
}
