/**
 * Documents through the whole agent, as CSV files go (kpi-local-data.test.ts, localfile-lifecycle
 * .test.ts): a JSON Lines file and an Excel workbook in a watched folder are read once they are
 * complete (the settle time: these tests wait ~10 s for it), delivered, evaluated by a KPI over
 * their fields (nested JSON flattened to "cycle.state"), and restreamed with the same record ids
 * without counting a record twice.
 */
import { strToU8, zipSync } from 'fflate';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { availabilityKpi } from '../../../../shared/testing/kpi-fixtures.js';
import { csvOutboxRows, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ROWS: [string, string, number][] = [
  ['2026-01-05 06:00:00', 'running', 600],
  ['2026-01-05 06:10:00', 'running', 600],
  ['2026-01-05 06:20:00', 'stopped', 1200],
  ['2026-01-05 06:40:00', 'running', 1200],
  ['2026-01-05 07:00:00', 'running', 1800],
  ['2026-01-05 07:30:00', 'stopped', 1800],
];

const ndjson = () => ROWS.map(([time, state, seconds]) => JSON.stringify({ time, cycle: { state, duration_s: seconds }, machine: { id: 'P1' } })).join('\n') + '\n';

/** The same rows as a workbook: text times, inline strings, numbers; header names as the flattened JSON's. */
function workbook(): Buffer {
  const cell = (ref: string, value: string | number) => (typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`);
  const row = (r: number, values: (string | number)[]) => `<row r="${r}">${values.map((v, c) => cell(`${'ABC'[c]}${r}`, v)).join('')}</row>`;
  const rows = [row(1, ['time', 'cycle.state', 'cycle.duration_s']), ...ROWS.map((values, i) => row(i + 2, values))].join('');
  return Buffer.from(zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns:r="r"><sheets><sheet name="Cycles" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${rows}</sheetData></worksheet>`),
  }));
}

function documentPlant() {
  const root = tempDirectory('tributary-documents-plant-');
  const drop = path.join(root, 'drop');
  const outbox = path.join(root, 'outbox');
  fs.mkdirSync(drop, { recursive: true });
  const parseTimestamps = [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }];
  const config = {
    data_receiver: [{
      data_receiver_name: 'plant', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
      streams: [
        { asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.ndjson'], parser: 'events' },
        { asset: 'Press_2', stream_type: 'cycle', file_filter: ['press_*.xlsx'], parser: 'sheet' },
      ],
      parsers: [
        { parser_name: 'events', parser_type: 'json', options: { lines: true, parse_timestamps: parseTimestamps } },
        { parser_name: 'sheet', parser_type: 'excel', options: { sheet_name: 'Cycles', parse_timestamps: parseTimestamps } },
      ],
    }],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  };
  return { drop, config, delivered: (asset: string) => csvOutboxRows(outbox, asset, 'cycle') };
}

/** availability over the documents' fields: the nested JSON's, flattened with "." (and the sheet's columns of those names). */
function documentAvailability() {
  const kpi = availabilityKpi();
  kpi.field_maps = [{
    alias_map: {
      up_time: { name: 'cycle.duration_s', row_conditions: { cases: [{ name: 'cycle.state', op: 'eq', value: 'running', then: "column['cycle.duration_s']" }], else: 0 } },
      all_time: { name: 'cycle.duration_s' },
    },
  }];
  return kpi;
}

const request = { name: 'availability', machines: ['Press_1', 'Press_2'], start: '2026-01-05T06:00:00Z', end: '2026-01-05T09:00:00Z', bin_size: 3600 };
type Bin = { value: number | null; status: string; dependencies: Record<string, number | null>; records: number };

describe('JSON Lines and Excel documents through the agent', () => {
  it('computes a KPI over the documents\' fields, and restreams each document stream with the same ids without counting twice', async () => {
    const plant = documentPlant();
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', plant.config);
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    const put = await server.call('PUT', '/v1/kpis/availability', documentAvailability());
    expect(put.json.success, JSON.stringify(put.json)).toBe(true);
    fs.writeFileSync(path.join(plant.drop, 'press_1.ndjson'), ndjson());
    fs.writeFileSync(path.join(plant.drop, 'press_2.xlsx'), workbook());
    await waitFor(() => plant.delivered('Press_1').length === 6 && plant.delivered('Press_2').length === 6, 40_000, 'both documents to be delivered');
    expect(plant.delivered('Press_1').map((r) => [r.time, r['cycle.state'], r['machine.id']])).toEqual(ROWS.map(([time, state]) => [`${time.replace(' ', 'T')}.000000Z`, state, 'P1']));

    const evaluate = async () => {
      const reply = await server!.call('POST', '/v1/kpis/evaluate', request);
      expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
      return reply.json.response.machines as { machine: string; bins: Bin[] }[];
    };
    const machines = await waitFor(async () => {
      const current = await evaluate();
      return current.every((m) => m.bins.reduce((n, b) => n + b.records, 0) === 6) && current;
    }, 15_000, 'the records to reach the KPI history');
    // 06:00–07:00: running 600 + 600 + 1200 of 3600 s; 07:00–08:00: 1800 of 3600 s; 08:00–09:00: no data. The same for both documents.
    for (const machine of machines) {
      expect(machine.bins.map((b) => [b.value === null ? null : Number(b.value.toFixed(4)), b.status, b.dependencies, b.records])).toEqual([
        [66.6667, 'neutral', { up_time: 2400, all_time: 3600 }, 4],
        [50, 'bad', { up_time: 1800, all_time: 3600 }, 2],
        [null, 'neutral', { up_time: null, all_time: null }, 0],
      ]);
    }

    for (const asset of ['Press_2', 'Press_1']) {
      const other = asset === 'Press_1' ? 'Press_2' : 'Press_1';
      const before = plant.delivered(other).length;
      const restream = await server.call('POST', '/v1/restream', { plant: [{ asset, stream_type: 'cycle' }] });
      expect(restream.json.success, JSON.stringify(restream.json)).toBe(true);
      await waitFor(() => plant.delivered(asset).length === 12, 40_000, `the restreamed records of ${asset}`);
      const sent = plant.delivered(asset);
      expect(sent.slice(6).map((r) => r.record_id)).toEqual(sent.slice(0, 6).map((r) => r.record_id));
      expect(sent.slice(6).map((r) => r['cycle.duration_s'])).toEqual(sent.slice(0, 6).map((r) => r['cycle.duration_s']));
      // Only the named stream was sent again.
      expect(plant.delivered(other)).toHaveLength(before);
    }
    expect(await evaluate()).toEqual(machines);
    expect(server.host.runtime.kpis.historySize()).toBe(12);
  }, 150_000);
});
