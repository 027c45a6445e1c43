import { strToU8, zipSync } from 'fflate';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { StreamsPage } from '../pages/streams-page.js';
import { expect, test } from '../fixtures/console-server.js';

/** A LIMS export as Excel writes a plain table: inline strings, numbers, a boolean. */
function limsWorkbook(): Buffer {
  const rows = [
    ['sampled', 'batch', 'viscosity_mPas', 'pass'],
    ['2026-01-05 06:00:00', 'B-101', 812.5, true],
    ['2026-01-05 06:30:00', 'B-102', 797.25, true],
    ['2026-01-05 07:00:00', 'B-103', 1020, false],
  ];
  const cell = (ref: string, value: string | number | boolean) =>
    typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : typeof value === 'boolean' ? `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  const sheet = rows.map((values, r) => `<row r="${r + 1}">${values.map((v, c) => cell(`${'ABCD'[c]}${r + 1}`, v)).join('')}</row>`).join('');
  return Buffer.from(zipSync({
    'xl/workbook.xml': strToU8('<workbook xmlns:r="r"><sheets><sheet name="Samples" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    'xl/_rels/workbook.xml.rels': strToU8('<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'),
    'xl/worksheets/sheet1.xml': strToU8(`<worksheet><sheetData>${sheet}</sheetData></worksheet>`),
  }));
}

test('an engineer adds a folder of Excel exports: the workbook shows in the preview, then flows and is listed with its stream', async ({ page, server }) => {
  // Read once complete: unchanged for the settle time (10 s), then delivered.
  test.setTimeout(120_000);
  const folder = path.join(server.dataDirectory, 'lims');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'samples_20260105.xlsx'), limsWorkbook());
  // The demo configuration with a second receiver for the quality lab's exports.
  const headers = { authorization: `Bearer ${server.token}` };
  const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  config.data_receiver.push({
    data_receiver_name: 'lims_exports', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: folder }],
    streams: [{ asset: 'Lab_1', stream_type: 'quality', file_filter: ['samples_*.xlsx'], parser: 'lims' }],
    parsers: [{ parser_name: 'lims', parser_type: 'excel', options: { sheet_name: 'Samples', localtz: 'UTC', parse_timestamps: [{ field_name: 'sampled', format: '%Y-%m-%d %H:%M:%S' }] } }],
  });
  const saved = await page.request.post(`${server.origin}/v1/config`, { headers, data: config });
  expect((await saved.json()).success).toBe(true);

  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const editor = new ConfigPage(page);
  // The editor holds the saved configuration (the new receiver is further down than Monaco renders).
  await expect(editor.editorText).toContainText('demo_plant_files');
  await editor.preview.click();
  await editor.previewDialog.getByLabel('Receiver').selectOption('lims_exports');
  const table = editor.previewTable('Lab_1:quality');
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(editor.previewSection('Lab_1:quality')).toContainText('samples_20260105.xlsx');
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(table.getByRole('columnheader')).toContainText(['sampled', 'batch', 'viscosity_mPas', 'pass']);
  await expect(rows.nth(1)).toContainText('2026-01-05T06:00:00.000000Z');
  await expect(rows.nth(1)).toContainText('B-101');
  await expect(rows.nth(2)).toContainText('797.25');
  await expect(rows.nth(3)).toContainText('B-103');
  await editor.previewDialog.getByRole('button', { name: 'Close' }).click();

  // The Data flow: the stream has records (once the workbook has settled), seconds old.
  await app.goTo('Status');
  const status = new StatusPage(page);
  const flow = status.flowRow('lims_exports/Lab_1:quality');
  await expect(flow).toBeVisible();
  await expect(flow.locator('[data-freshness]')).toHaveAttribute('data-last-record-at', /^2\d{3}-/, { timeout: 60_000 });
  await expect(flow.locator('[data-freshness]')).not.toHaveText('none yet');
  await expect(flow.locator('td.numeric')).not.toHaveText('0');

  // The Streams page lists it under its receiver, without markers (the workbook read cleanly).
  await app.goTo('Streams');
  const streams = new StreamsPage(page);
  await expect(streams.row('Lab_1:quality')).toContainText('lims_exports');
  await expect(streams.row('Lab_1:quality')).toContainText('no markers');
});
