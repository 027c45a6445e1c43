import path from 'node:path';
import { AgentsPage } from '../pages/agents-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { CopyDialog } from '../pages/copy-dialog.js';
import { expect, startOtherServer, test } from '../fixtures/console-server.js';

test.use({ demo: false });

const journey = 'an engineer copies a source to another agent: sees the diff, types its secret, fixes what that '
  + 'agent refuses, saves there';

test(journey, async ({ page, server, browser }) => {
  // Extra agent processes on a machine shared with other test workers: minutes, not the default 45 s.
  test.setTimeout(120_000);
  // This agent (the desk's) reads a PostgreSQL table and archives to a folder inside its own data directory.
  const exportsHere = path.join(server.dataDirectory, 'exports');
  const receiver = {
    data_receiver_name: 'press_sql',
    protocol: 'sql',
    poll_interval: 60,
    connections: [{
      host: '127.0.0.1', port: 55432, username: 'tributary', password: 'tributary-pg-pass',
      database_type: 'postgresql', database_name: 'tributary_test', ssl: false,
    }],
    streams: [{
      asset: 'Press_1', stream_type: 'orders', query: 'SELECT * FROM press_orders WHERE id > :id ORDER BY id',
      state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 0 }],
    }],
  };
  const transmit = { transmit_name: 'exports', transmit_type: 'csv', directory: exportsHere };
  const seeded = await page.request.post(`${server.origin}/v1/config`, {
    headers: { authorization: `Bearer ${server.token}` },
    data: { data_receiver: [receiver], transforms: [], data_transmit: [transmit] },
  });
  expect(seeded.status(), await seeded.text()).toBe(200);

  const hall = await startOtherServer(['--tls']);
  try {
    const app = new ConsoleApp(page);
    await app.open(server);
    await app.goTo('Agents');
    const agents = new AgentsPage(page);
    await agents.addAgent('hall-b', hall.origin, hall.token);
    // Closed once the agent is added (the dialog then shows the pinned certificate): a click while
    // it turned from the form into that answer could land where the moved Close button had been.
    await expect(page.getByTestId('pinned-fingerprint')).toHaveText(hall.fingerprint!);
    await agents.addDialog.getByRole('button', { name: 'Close' }).click();
    await expect(agents.addDialog).toBeHidden();
    await expect(agents.row('hall-b')).toContainText('running');

    await app.goTo('Configuration');
    const copy = new CopyDialog(page);
    await copy.open.click();
    await expect(copy.dialog).toBeVisible();
    await expect(copy.showChanges).toBeDisabled();
    await copy.choice('Receivers', 'press_sql').check();
    await copy.choice('Transmits', 'exports').check();
    await copy.choice('To agents', 'hall-b').check();
    await copy.showChanges.click();

    // hall-b's own configuration, read through this agent, with the picked blocks merged in.
    await expect(copy.summary('hall-b')).toHaveText('Adds receiver press_sql, transmit exports.');
    await expect(copy.modifiedLines('hall-b').filter({ hasText: '"data_receiver_name": "press_sql"' })).toHaveCount(1);

    // Without its password, hall-b refuses it; and it refuses the folder, which is outside its own data directory.
    await copy.check('hall-b').click();
    const password = copy.problems('hall-b').filter({ hasText: 'data_receiver[0].connections[0].password' });
    await expect(password).not.toHaveCount(0);
    const folder = copy.problems('hall-b').filter({ hasText: 'outside the agent\'s data directory' });
    await expect(folder).toHaveCount(1);
    await expect(folder).toContainText(hall.dataDirectory);
    await expect(copy.save('hall-b')).toBeDisabled();

    await copy.target('hall-b').getByLabel(/^password of receiver press_sql/).fill('tributary-pg-pass');
    // Typing makes the last check stale: hall-b is asked again.
    await expect(copy.target('hall-b').getByRole('list', { name: 'Problems found by hall-b' })).toHaveCount(0);
    await copy.check('hall-b').click();
    await expect(copy.problems('hall-b').filter({ hasText: 'password' })).toHaveCount(0);
    await expect(copy.problems('hall-b').filter({ hasText: 'outside the agent\'s data directory' })).toHaveCount(1);
    await expect(copy.save('hall-b')).toBeDisabled();

    // The fix is made right in the diff: hall-b writes into a folder of its own data directory.
    await copy.replaceText('hall-b', exportsHere, 'exports');
    await copy.check('hall-b').click();
    await expect(copy.target('hall-b').getByText('hall-b accepts it')).toBeVisible();
    await expect(copy.save('hall-b')).toBeEnabled();
    await copy.save('hall-b').click();
    const saved = copy.target('hall-b').getByRole('status').filter({ hasText: 'Saved to hall-b as revision' });
    await expect(saved).toBeVisible();

    // On hall-b now, asked directly: the receiver with a password of its own, and the fixed folder.
    const hallHeaders = { authorization: `Bearer ${hall.token}` };
    const there = await page.request.get(`${hall.origin}/v1/config`, { headers: hallHeaders, ignoreHTTPSErrors: true });
    const onHall = (await there.json()).response;
    const names = onHall.data_receiver.map((r: { data_receiver_name: string }) => r.data_receiver_name);
    expect(names).toEqual(['press_sql']);
    expect(onHall.data_receiver[0].connections[0]).toMatchObject({ host: '127.0.0.1', password: '********' });
    expect(onHall.data_transmit).toEqual([expect.objectContaining({ transmit_name: 'exports', directory: 'exports' })]);
    // And this agent's configuration is as it was.
    const headers = { authorization: `Bearer ${server.token}` };
    const here = await (await page.request.get(`${server.origin}/v1/config`, { headers })).json();
    expect(here.response.data_transmit[0].directory).toBe(exportsHere);

    // Copying saves on other agents: an operator, who may not save, is not offered it (the page is read-only).
    const shift = { name: 'shift', role: 'operator' };
    const created = await page.request.post(`${server.origin}/v1/tokens`, { headers, data: shift });
    const operator = new ConsoleApp(await browser.newPage());
    await operator.open({ ...server, token: (await created.json()).response.token }, 'configuration');
    await expect(operator.page.getByTestId('read-only-notice')).toContainText('Only an admin may do this');
    await expect(new CopyDialog(operator.page).open).toHaveCount(0);
    await operator.page.close();
  } finally {
    // The console leaves before the hall's agent stops: a page still asking it would log a failed request.
    await page.goto('about:blank');
    await hall.stop();
  }
});
