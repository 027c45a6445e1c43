import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

// A German browser, as the plant's.
test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('a machine that refuses the connection is marked in German on Streams and Status, the address kept (issue 57)', async ({ page, server }) => {
  // A Modbus receiver for a press whose port nothing listens on: the agent marks its stream and retries.
  const headers = { authorization: `Bearer ${server.token}` };
  const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  config.data_receiver.push({
    data_receiver_name: 'press_9_modbus',
    protocol: 'modbus',
    poll_interval: 1,
    connections: [{ host: '127.0.0.1', port: 1, timeout: 2 }],
    streams: [{ asset: 'Press_9', stream_type: 'registers', unit_id: 1, modbus_registers: [{ exportname: 'force_kN', table: 'holding', address: 0, data_type: 'int16' }] }],
  });
  const saved = await page.request.post(`${server.origin}/v1/config`, { headers, data: config });
  expect((await saved.json()).success).toBe(true);

  const app = new ConsoleApp(page);
  await app.open(server, 'streams');
  const marker = page.locator('tr[data-stream="Press_9:registers"] .marker-message');
  await expect(marker).toHaveText(/^127\.0\.0\.1:1 hat die Verbindung abgelehnt: An diesem Port lauscht nichts, oder das Gerät nimmt keine weiteren Verbindungen an\. Nächster Versuch in \d+ s\.$/, { timeout: 20_000 });

  // The service's reason on Status is the same message, in German too.
  await app.goTo('Status');
  await expect(page.locator('tr[data-service="receiver:press_9_modbus"] .service-reason')).toContainText('127.0.0.1:1 hat die Verbindung abgelehnt', { timeout: 20_000 });
});
