import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { AgentsPage } from '../pages/agents-page.js';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, startOtherServer, test } from '../fixtures/console-server.js';

test('an engineer adds a hall\'s agent, switches to it, saves its configuration there and sees it named in the header', async ({ page, server }) => {
  const hall = await startOtherServer(['--tls']);
  try {
    // The hall's agent has a configuration of its own: one localfile receiver.
    const headers = { authorization: `Bearer ${hall.token}` };
    const receiver = {
      data_receiver_name: 'hall_files',
      protocol: 'localfile',
      poll_interval: 5,
      connections: [{ root_path: fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-e2e-hall-drop-')) }],
      streams: [{ asset: 'Press_1', stream_type: 'process', file_filter: ['press-1-*.csv'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
    };
    const seeded = await page.request.post(`${hall.origin}/v1/config`, { headers, data: { data_receiver: [receiver], transforms: [], data_transmit: [] }, ignoreHTTPSErrors: true });
    expect(seeded.status(), await seeded.text()).toBe(200);

    const app = new ConsoleApp(page);
    await app.open(server);
    const agents = new AgentsPage(page);
    await expect(agents.managed).toContainText('(this agent)');
    const ownColour = await agents.managed.evaluate((el) => getComputedStyle(el).backgroundColor);

    await app.goTo('Agents');
    await agents.addAgent('hall-2', hall.origin, hall.token);
    // Trust on first use: the pinned certificate is the one the hall's agent printed.
    await expect(page.getByTestId('pinned-fingerprint')).toHaveText(hall.fingerprint!);
    await agents.addDialog.getByRole('button', { name: 'Close' }).click();
    await expect(agents.row('hall-2')).toContainText('running');

    await agents.manage('hall-2').click();
    await expect(agents.managed).toHaveText(/Managing\s+hall-2/);
    expect(await agents.managed.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(ownColour);

    await app.goTo('Configuration');
    const config = new ConfigPage(page);
    await expect(config.editorText).toContainText('"protocol": "localfile"');
    await config.retypeValue('"poll_interval": 5,', '5', '7');
    await config.save.click();
    await expect(config.saveDialog()).toHaveAccessibleName('Save these changes to hall-2?');
    await config.dialogSave().click();
    await expect(app.toast('Configuration saved')).toBeVisible();
    await expect(agents.managed).toHaveText(/Managing\s+hall-2/);

    // Saved on the hall's agent, not on this one.
    const there = await (await page.request.get(`${hall.origin}/v1/config`, { headers, ignoreHTTPSErrors: true })).json();
    expect(JSON.stringify(there.response)).toContain('"poll_interval":7');
    const here = await (await page.request.get(`${server.origin}/v1/config`, { headers: { authorization: `Bearer ${server.token}` } })).json();
    expect(JSON.stringify(here.response)).not.toContain('"poll_interval":7');
  } finally {
    // The console polls the hall's agent through this one: it leaves first, so that stopping the
    // hall is not a failed status request of a page still open (a 502 in the console).
    await page.goto('about:blank');
    await hall.stop();
  }
});
