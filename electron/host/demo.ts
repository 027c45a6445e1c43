import fs from 'node:fs';
import path from 'node:path';
import type { ConfigurationInput } from '../../shared/config/schema.js';

/** A small plant: two machines writing cycle CSVs into folders, sent to a local ingest server. */
export function demoConfiguration(dataDirectory: string): ConfigurationInput {
  const drop = path.join(dataDirectory, 'demo', 'drop');
  return {
    data_receiver: [
      {
        data_receiver_name: 'demo_plant_files',
        protocol: 'localfile',
        poll_interval: 2,
        delete_completed: false,
        connections: [{ connection_name: 'drop_folder', root_path: drop }],
        streams: [
          { asset: 'Press_1', stream_type: 'cycle', file_filter: ['press1_*.csv'] },
          { asset: 'Oven_2', stream_type: 'process', file_filter: ['oven2_*.csv'] },
        ],
        parsers: [
          {
            parser_name: 'machine_csv',
            parser_type: 'spreadsheet',
            filter_stream: ['*'],
            file_format: 'csv',
            options: {
              localtz: 'Europe/Berlin',
              parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }], bad_lines_action: 'warn' },
            },
          },
        ],
      },
    ],
    transforms: [{ transform_name: 'rename_columns', transform_type: 'rename', filter_stream: ['Press_1:cycle'], renames: { cyc_t: 'cycle_time_s' } }],
    data_transmit: [
      {
        transmit_name: 'local_ingest',
        transmit_type: 'remotedatapost',
        filter_stream: ['*'],
        base_url: 'http://127.0.0.1:4901',
        API_key: 'demo-api-key-not-secret',
        API_key_ID: 'demo@tributary.local',
        timeout: 30,
        poll_interval: 5,
        max_request_records: 3000,
      },
    ],
  };
}

/** Writes a few CSV files like the demo machines would. Existing files are left alone. */
export function writeDemoFiles(dataDirectory: string): void {
  const drop = path.join(dataDirectory, 'demo', 'drop');
  fs.mkdirSync(drop, { recursive: true });
  const start = Date.UTC(2026, 0, 5, 6, 0, 0);
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const press = ['time,part_id,cyc_t,force_kN,ok'];
  const oven = ['time,zone1_C,zone2_C,belt_speed_mpm'];
  for (let i = 0; i < 120; i += 1) {
    press.push(`${stamp(start + i * 30_000)},P${10_000 + i},${(29 + Math.sin(i / 7) * 2).toFixed(2)},${(812 + (i % 9) * 3.5).toFixed(1)},${i % 23 === 0 ? 0 : 1}`);
    oven.push(`${stamp(start + i * 60_000)},${(182 + Math.sin(i / 11) * 4).toFixed(1)},${(176 + Math.cos(i / 13) * 3).toFixed(1)},${(2.4 + (i % 5) * 0.05).toFixed(2)}`);
  }
  const files: [string, string[]][] = [
    ['press1_20260105.csv', press],
    ['oven2_20260105.csv', oven],
  ];
  for (const [name, lines] of files) {
    const target = path.join(drop, name);
    if (!fs.existsSync(target)) fs.writeFileSync(target, `${lines.join('\n')}\n`);
  }
}
