/**
 * Sparkplug B in the console, against the Mosquitto of `npm run services` (127.0.0.1:51883): the
 * data-flow panel shows the edge node waiting for its primary host, then born once the host's STATE
 * says online; the preview of an mqtt receiver reading the node's DDATA shows the decoded metrics.
 */
import crypto from 'node:crypto';
import { connectAsync } from 'mqtt';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

const BROKER = { host: '127.0.0.1', port: 51883, username: 'tributary', password: 'tributary-mqtt-pass' };

test('an engineer sees the Sparkplug edge node wait for its primary host, then born, and previews the DDATA it sends', async ({ page, server }) => {
  test.setTimeout(90_000);
  const id = crypto.randomBytes(4).toString('hex');
  const group = `E2E${id}`;
  const host = `scada-${id}`;
  const headers = { authorization: `Bearer ${server.token}` };
  const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  config.data_transmit.push({
    transmit_name: 'uns',
    transmit_type: 'mqtt',
    // Only the demo's files: the receiver below reads the node back and must not be sent again.
    filter_stream: ['Press_1:cycle', 'Oven_2:process'],
    ...BROKER,
    payload_format: 'sparkplug_b',
    group_id: group,
    edge_node_id: 'tributary-e2e',
    primary_host_id: host,
    poll_interval: 1,
  });
  config.data_receiver.push({
    data_receiver_name: 'plant_uns',
    protocol: 'mqtt',
    connections: [{ ...BROKER, timeout: 5 }],
    streams: [{ asset: 'Line_UNS', stream_type: 'sparkplug', topic: `spBv1.0/${group}/DDATA/tributary-e2e/+`, payload_format: 'sparkplug_b' }],
  });
  const saved = await page.request.post(`${server.origin}/v1/config`, { headers, data: config });
  expect((await saved.json()).success).toBe(true);

  const scada = await connectAsync({ ...BROKER, protocolVersion: 5, clientId: `e2e-host-${id}`, reconnectPeriod: 0 });
  try {
    const app = new ConsoleApp(page);
    await app.open(server);
    const status = new StatusPage(page);
    const node = status.sparkplugNode('uns');
    // No STATE from the host yet: the node waits, the records are kept.
    await expect(node).toHaveAttribute('data-sparkplug-state', 'waiting_for_host', { timeout: 20_000 });
    await expect(node).toContainText(`${group}/tributary-e2e`);
    await expect(node).toContainText(`waiting for primary host ${host} (no STATE heard yet)`);

    // The host comes online (Sparkplug 3.0 STATE, retained): NBIRTH, then a DBIRTH per machine.
    await scada.publishAsync(`spBv1.0/STATE/${host}`, JSON.stringify({ online: true, timestamp: Date.now() }), { qos: 1, retain: true });
    await expect(node).toHaveAttribute('data-sparkplug-state', 'born', { timeout: 20_000 });
    await expect(node).toContainText(/online · NBIRTH sent .+ \(bdSeq \d+\), 2 devices born, primary host scada-[0-9a-f]+ online/, { timeout: 30_000 });

    // The host goes offline: the node is dead to it and waits again.
    await scada.publishAsync(`spBv1.0/STATE/${host}`, JSON.stringify({ online: false, timestamp: Date.now() + 1 }), { qos: 1, retain: true });
    await expect(node).toHaveAttribute('data-sparkplug-state', 'waiting_for_host', { timeout: 20_000 });
    await expect(node).toContainText(`waiting for primary host ${host} (offline)`);
    await expect(node).toContainText(/Last: NBIRTH sent /);
    await scada.publishAsync(`spBv1.0/STATE/${host}`, JSON.stringify({ online: true, timestamp: Date.now() + 2 }), { qos: 1, retain: true });
    await expect(node).toHaveAttribute('data-sparkplug-state', 'born', { timeout: 20_000 });

    // The preview of the mqtt receiver listens to the node's DDATA and decodes its metrics.
    await app.open(server, 'configuration');
    const editor = new ConfigPage(page);
    await expect(editor.editorText).toContainText('demo_plant_files');
    await editor.goToText('"plant_uns"');
    await editor.preview.click();
    await expect(editor.previewDialog).toBeVisible();
    const table = editor.previewTable('Line_UNS:sparkplug');
    await expect(table).toBeVisible({ timeout: 30_000 });
    await expect(editor.previewSection('Line_UNS:sparkplug')).toContainText(`spBv1.0/${group}/DDATA/tributary-e2e/+`);
    // The demo press's columns, as metrics of the DDATA the agent itself published.
    await expect(table.getByRole('columnheader')).toContainText(['Time stamp (local)', 'Time stamp (UTC)']);
    await expect(table.getByRole('row').first()).toContainText(/cycle_time_s|zone1_C/);
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await expect(table.getByRole('row').nth(1)).toContainText(/P1\d{5}|\d+\.\d/);
  } finally {
    await scada.publishAsync(`spBv1.0/STATE/${host}`, '', { qos: 1, retain: true });
    await scada.endAsync();
  }
});
