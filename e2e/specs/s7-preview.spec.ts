import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';
import { startS7Plc } from '../servers/s7-plc.js';

test('an engineer inserts the S7 template and previews an oven PLC: decoded values and the read plan', async ({ page, server }) => {
  const plc = await startS7Plc();
  try {
    const headers = { authorization: `Bearer ${server.token}` };
    const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
    config.data_receiver.unshift({
      data_receiver_name: 'oven_s7',
      protocol: 's7',
      poll_interval: 1,
      connections: [{ host: '127.0.0.1', port: plc.port, rack: 0, slot: 1, timeout: 3 }],
      streams: [{ asset: 'Oven_4', stream_type: 'process', s7_tags: [
        { exportname: 'temp', address: 'DB1,REAL0' }, { exportname: 'count', address: 'DB1,INT4' },
        { exportname: 'door', address: 'DB1,X6.0' }, { exportname: 'total', address: 'DB1,DINT8' },
        { exportname: 'recipe', address: 'DB1,S20.16' }, { exportname: 'marker', address: 'MW10' }, { exportname: 'flag', address: 'M0.1' },
      ] }],
    });
    const saved = await page.request.post(`${server.origin}/v1/config`, { headers, data: config });
    expect((await saved.json()).success).toBe(true);

    const app = new ConsoleApp(page);
    await app.open(server, 'configuration');
    const editor = new ConfigPage(page);
    await expect(editor.editorText).toContainText('oven_s7');

    await editor.preview.click();
    await editor.previewDialog.getByLabel('Receiver').selectOption('oven_s7');
    const table = editor.previewTable('Oven_4:process');
    await expect(table).toBeVisible({ timeout: 20_000 });
    await expect(table.getByRole('columnheader')).toContainText(['temp', 'count', 'door', 'total', 'recipe', 'marker', 'flag']);
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText('21.5');
    await expect(row).toContainText('1234');
    await expect(row).toContainText('987654');
    await expect(row).toContainText('BREAD');
    await expect(row).toContainText('513');
    // The plan: seven values in one job (DB1 bytes 0–37 and M bytes 0–11), at the PDU the PLC granted.
    await expect(editor.previewSection('Oven_4:process')).toContainText(/s7:\/\/PLC 127\.0\.0\.1:\d+ \(rack 0, slot 1\), PDU 240 bytes, 1 of 1 job per poll: DB1, bytes 0–37; memory \(M, flags\), bytes 0–11/);
    await editor.previewDialog.getByRole('button', { name: 'Close' }).click();
    await expect(editor.previewDialog).toBeHidden();

    // The template: a PLC connection and typed addresses, its host still to fill in.
    await editor.insertTemplate('s7').click();
    await expect(editor.notice).toContainText('Inserted the s7 receiver "s7_plc"');
    await expect(editor.line('"data_receiver_name": "s7_plc"')).toBeVisible();
    await expect(editor.errorViolations.first()).toBeVisible();
  } finally {
    await plc.stop();
  }
});
