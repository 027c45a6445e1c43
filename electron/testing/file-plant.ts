import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { type TestServer, startTestServer, tempDirectory } from './test-host.js';

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (cause) {
      last = cause;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Rows a csv transmit wrote into `directory` for a stream, over all its files in order, as objects
 * of cells by column (values without commas or quotes only).
 */
export function csvOutboxRows(directory: string, asset: string, streamType: string): Record<string, string>[] {
  if (!fs.existsSync(directory)) return [];
  const rows: Record<string, string>[] = [];
  const prefix = `${asset}__${streamType}.`;
  const order = (name: string) => Number(/\.(\d+)\.csv$/.exec(name)?.[1] ?? 0);
  for (const name of fs.readdirSync(directory).filter((n) => n.startsWith(prefix)).sort((a, b) => order(a) - order(b))) {
    const [header, ...lines] = fs.readFileSync(path.join(directory, name), 'utf8').trimEnd().split('\n');
    const columns = header!.split(',');
    for (const line of lines) rows.push(Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
  }
  return rows;
}

/** A drop folder, an outbox folder and a configuration reading the one into the other. */
export function filePlant(options: { parse?: Record<string, unknown>; localtz?: string; deleteCompleted?: boolean; transforms?: unknown[]; fileEncoding?: string } = {}) {
  const root = tempDirectory('tributary-plant-');
  const drop = path.join(root, 'drop');
  const outbox = path.join(root, 'outbox');
  fs.mkdirSync(drop, { recursive: true });
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'plant',
        protocol: 'localfile',
        poll_interval: 1,
        delete_completed: options.deleteCompleted ?? false,
        connections: [{ root_path: drop }],
        streams: [
          { asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] },
          { asset: 'Oven_2', stream_type: 'process', file_filter: ['oven_*.csv'] },
        ],
        parsers: [
          {
            parser_name: 'csv',
            parser_type: 'spreadsheet',
            filter_stream: ['*'],
            ...(options.fileEncoding ? { file_encoding: options.fileEncoding } : {}),
            options: {
              localtz: options.localtz ?? 'UTC',
              parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }], ...options.parse },
            },
          },
        ],
      },
    ],
    transforms: options.transforms ?? [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  };

  /** Rows the csv transmit wrote for a stream. */
  const delivered = (asset: string, streamType: string) => csvOutboxRows(outbox, asset, streamType);

  return { root, drop, outbox, config, delivered, write: (name: string, text: string) => fs.writeFileSync(path.join(drop, name), text), append: (name: string, text: string) => fs.appendFileSync(path.join(drop, name), text) };
}

/** Header and rows `from` ≤ n < `to` of the press files the plant tests drop: time,part,force. */
export const PRESS_HEADER = 'time,part,force\n';
export const pressRows = (from: number, to: number, day = '2026-01-05') =>
  Array.from({ length: to - from }, (_, k) => `${day} 06:${String(Math.floor((from + k) / 60)).padStart(2, '0')}:${String((from + k) % 60).padStart(2, '0')},${from + k},${(from + k) * 1.5}\n`).join('');

/** A headless server on `dataDirectory` with the plant's configuration saved. */
export async function startPlantServer(plant: ReturnType<typeof filePlant>, dataDirectory = tempDirectory()): Promise<TestServer> {
  const server = await startTestServer({ dataDirectory });
  const saved = await server.call('POST', '/v1/config', plant.config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return server;
}
