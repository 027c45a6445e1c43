/**
 * One Excel file never stops collection (issue 50, critical): a 1.4 MB workbook of 200 million
 * empty shared strings filled a parse thread's heap, and it was read again on every look and after
 * every restart. Here, through the whole agent: such a workbook is refused by the entry bound with a
 * marker naming it, and a workbook that still ends a thread (a heap made small on purpose with
 * TRIBUTARY_THREAD_HEAP_MB, as an edge PC with little memory would) costs that thread once: the
 * file is skipped until it changes, after a restart too, and the other streams go on.
 */
import { Zip, ZipDeflate, strToU8, zipSync } from 'fflate';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  delete process.env.TRIBUTARY_THREAD_HEAP_MB;
});

const WORKBOOK = 'xl/workbook.xml';
const parts = (sheetRows: string) => ({
  [WORKBOOK]: '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels': '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
  'xl/worksheets/sheet1.xml': `<worksheet><sheetData>${sheetRows}</sheetData></worksheet>`,
});

/** A good workbook: a header and `rows` rows of one number. */
function goodWorkbook(rows: number): Buffer {
  const body = Array.from({ length: rows }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`).join('');
  const entries = parts(`<row r="1"><c r="A1" t="inlineStr"><is><t>n</t></is></c></row>${body}`);
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, strToU8(v)]))));
}

/** A workbook whose shared strings are `count` copies of `entry` (or distinct texts), deflated as it is made. */
function sharedStringsWorkbook(count: number, entry: (i: number) => string): Buffer {
  const pieces: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    pieces.push(data);
  });
  for (const [name, text] of Object.entries(parts('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>'))) {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(strToU8(text), true);
  }
  const shared = new ZipDeflate('xl/sharedStrings.xml', { level: 6 });
  zip.add(shared);
  shared.push(strToU8('<sst>'));
  for (let start = 0; start < count; start += 100_000) {
    const block: string[] = [];
    for (let i = start; i < Math.min(count, start + 100_000); i += 1) block.push(entry(i));
    shared.push(strToU8(block.join('')));
  }
  shared.push(strToU8('</sst>'), true);
  zip.end();
  return Buffer.concat(pieces);
}

function plant() {
  const root = tempDirectory('tributary-hostile-workbooks-');
  const drop = path.join(root, 'drop');
  const outbox = path.join(root, 'outbox');
  fs.mkdirSync(drop);
  const config = {
    data_receiver: [{
      data_receiver_name: 'sheets', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
      streams: [
        { asset: 'Hostile', stream_type: 'cycle', file_filter: ['hostile_*.xlsx'], parser: 'sheet' },
        { asset: 'Good', stream_type: 'cycle', file_filter: ['good_*.xlsx'], parser: 'sheet' },
      ],
      parsers: [{ parser_name: 'sheet', parser_type: 'excel' }],
    }],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  };
  return { drop, config, delivered: (asset: string) => csvOutboxRows(outbox, asset, 'cycle') };
}

async function markerOf(asset: string): Promise<string | undefined> {
  const streams = (await server!.call('GET', '/v1/streams')).json.response as { asset: string; markers: { level: string; message: string }[] }[];
  return streams.find((s) => s.asset === asset)?.markers.find((m) => m.level === 'error')?.message;
}

async function statusWithin(ms: number): Promise<void> {
  const started = performance.now();
  const status = await server!.call('GET', '/v1/status');
  expect(status.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(ms);
}

const logLines = (dataDirectory: string, text: string) =>
  fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_core.log'), 'utf8').split('\n').filter((line) => line.includes(text)).length;

describe('hostile workbooks through the agent', () => {
  it('refuses a workbook of 20 million empty shared strings by their count, and reads the good one beside it', async () => {
    const site = plant();
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', site.config)).json.success).toBe(true);
    // 100 MB of <si/> in 0.1 MB of zip: over the bound by entries, with no character at all.
    fs.writeFileSync(path.join(site.drop, 'hostile_bomb.xlsx'), sharedStringsWorkbook(20_000_000, () => '<si/>'));
    fs.writeFileSync(path.join(site.drop, 'good_1.xlsx'), goodWorkbook(5));
    const marker = await waitFor(() => markerOf('Hostile'), 40_000, 'a marker on the hostile stream');
    expect(marker).toMatch(/hostile_bomb\.xlsx.*more shared strings than a parse thread holds/);
    await waitFor(() => site.delivered('Good').length === 5, 40_000, 'the good workbook delivered');
    await statusWithin(1000);
    expect(site.delivered('Hostile')).toEqual([]);
  }, 90_000);

  it('skips a workbook that ended its thread until it changes, after a restart too, while the other stream goes on', async () => {
    const site = plant();
    // A heap a thread cannot read 400,000 distinct 40-character shared strings in (~26 MB).
    process.env.TRIBUTARY_THREAD_HEAP_MB = '16';
    server = await startTestServer();
    const dataDirectory = server.dataDirectory;
    expect((await server.call('POST', '/v1/config', site.config)).json.success).toBe(true);
    const heavy = path.join(site.drop, 'hostile_heavy.xlsx');
    fs.writeFileSync(heavy, sharedStringsWorkbook(400_000, (i) => `<si><t>text number ${String(i).padStart(8, '0')} of the export</t></si>`));
    const marker = await waitFor(() => markerOf('Hostile'), 60_000, 'a marker on the stream of the workbook that ended its thread');
    expect(marker).toMatch(/hostile_heavy\.xlsx is not read: the parse thread parse:\d ran out of memory.*skipped until it changes/);
    const killed = 'ran out of memory while reading it';
    expect(logLines(dataDirectory, killed)).toBe(1);
    // The thread was replaced: a good workbook of the other stream is read afterwards.
    fs.writeFileSync(path.join(site.drop, 'good_1.xlsx'), goodWorkbook(3));
    await waitFor(() => site.delivered('Good').length === 3, 40_000, 'the good workbook delivered after the thread died');
    await statusWithin(1000);
    // Several looks (poll_interval 1 s, settle time) later: not read again.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(logLines(dataDirectory, killed)).toBe(1);

    // A restart does not read it again either: its progress says why it is skipped.
    await server.close();
    server = await startTestServer({ dataDirectory });
    fs.writeFileSync(path.join(site.drop, 'good_2.xlsx'), goodWorkbook(2));
    await waitFor(() => site.delivered('Good').length === 5, 40_000, 'a good workbook delivered after the restart');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(logLines(dataDirectory, killed)).toBe(1);

    // Written again, it is read again (here it is as heavy as before, so it ends one thread again).
    fs.writeFileSync(heavy, sharedStringsWorkbook(400_001, (i) => `<si><t>text number ${String(i).padStart(8, '0')} of the export</t></si>`));
    await waitFor(() => logLines(dataDirectory, killed) === 2, 60_000, 'the changed workbook read again');
  }, 240_000);
});
