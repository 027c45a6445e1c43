import fs from 'node:fs';
import path from 'node:path';
import type { ConfigurationInput } from '../../shared/config/schema.js';
import { demoModbusReceiver } from './demo-modbus-server.js';
import { demoOpcuaReceiver } from './demo-opcua-server.js';

const ZONE = 'Europe/Berlin';

/**
 * A small plant: a press and an oven writing CSV rows into a folder and, given the port of the
 * simulated OPC UA server, two machines read over OPC UA, and given the port of the simulated Modbus
 * TCP compressor, that compressor; records go to CSV files in outbox/.
 */
export function demoConfiguration(dataDirectory: string, options: { opcuaPort?: number; modbusPort?: number } = {}): ConfigurationInput {
  return {
    data_receiver: [
      {
        data_receiver_name: 'demo_plant_files',
        protocol: 'localfile',
        poll_interval: 2,
        delete_completed: false,
        connections: [{ connection_name: 'drop_folder', root_path: demoDropFolder(dataDirectory) }],
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
              localtz: ZONE,
              parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }], bad_lines_action: 'warn' },
            },
          },
        ],
      },
      ...(options.opcuaPort === undefined ? [] : [demoOpcuaReceiver(options.opcuaPort)]),
      ...(options.modbusPort === undefined ? [] : [demoModbusReceiver(options.modbusPort)]),
    ],
    transforms: [{ transform_name: 'rename_columns', transform_type: 'rename', filter_stream: ['Press_1:cycle'], renames: { cyc_t: 'cycle_time_s' } }],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: path.join(dataDirectory, 'outbox') }],
    // The oven's zone 1 sensor freezes now and then (DemoLine): the data-quality watch reports it.
    data_quality: [{ filter_stream: ['Oven_2:process'], stuck: { after_seconds: DEMO_STUCK_SECONDS, min_records: 20, fields: ['zone1_C'] }, range: { zone2_C: [150, 200] } }],
  };
}

/** The demo's stuck check waits this long; its sensor stays frozen for FREEZE_TICKS. */
export const DEMO_STUCK_SECONDS = 20;
/** Of every 10 minutes of the demo line, zone 1 reads one value from second 3 to second 93: a new user sees the finding within half a minute. */
const FREEZE_CYCLE = 600;
const FREEZE_TICKS = [3, 93] as const;

export function demoDropFolder(dataDirectory: string): string {
  return path.join(dataDirectory, 'demo', 'drop');
}

/** Local wall time in the demo zone, `YYYY-MM-DD HH:MM:SS`. */
function localStamp(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The simulated line: every second the press finishes a part and the oven reports its zones, each
 * appending a row to its file of the day, as real machines do.
 */
export class DemoLine {
  private timer: NodeJS.Timeout | undefined;
  private tick = 0;

  constructor(private readonly dataDirectory: string) {}

  start(intervalMs = 1000): void {
    fs.mkdirSync(demoDropFolder(this.dataDirectory), { recursive: true });
    this.timer = setInterval(() => this.step(new Date()), intervalMs);
    this.timer.unref();
    this.step(new Date());
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  step(now: Date): void {
    const i = this.tick++;
    const stamp = localStamp(now);
    const day = stamp.slice(0, 10).replace(/-/g, '');
    this.append(`press1_${day}.csv`, 'time,part_id,cyc_t,force_kN,ok', `${stamp},P${100_000 + i},${(29 + Math.sin(i / 7) * 2).toFixed(2)},${(812 + (i % 9) * 3.5).toFixed(1)},${i % 23 === 0 ? 0 : 1}`);
    const phase = i % FREEZE_CYCLE;
    const zone1 = 182 + Math.sin((phase >= FREEZE_TICKS[0] && phase < FREEZE_TICKS[1] ? i - phase + FREEZE_TICKS[0] : i) / 11) * 4;
    this.append(`oven2_${day}.csv`, 'time,zone1_C,zone2_C,belt_speed_mpm', `${stamp},${zone1.toFixed(1)},${(176 + Math.cos(i / 13) * 3).toFixed(1)},${(2.4 + (i % 5) * 0.05).toFixed(2)}`);
  }

  private append(name: string, header: string, row: string): void {
    const file = path.join(demoDropFolder(this.dataDirectory), name);
    const text = fs.existsSync(file) ? `${row}\n` : `${header}\n${row}\n`;
    fs.appendFileSync(file, text);
  }
}
