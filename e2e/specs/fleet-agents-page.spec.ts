import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AgentsPage } from '../pages/agents-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, startOtherServer, test } from '../fixtures/console-server.js';

// A request through the proxy while line-b is down or untrusted answers 502, which the browser logs.
test.use({ demo: false, expectedConsoleErrors: [/status of 502/] });

const journey = 'the Agents page: filter and sort the rows, a killed agent shows unreachable, a renewed certificate '
  + 'is re-pinned after comparing it, an agent is removed';

test(journey, async ({ page, server }) => {
  // Extra agent processes on a machine shared with other test workers: minutes, not the default 45 s.
  test.setTimeout(120_000);
  const [lineA, lineB] = await Promise.all([startOtherServer(['--tls']), startOtherServer(['--tls'])]);
  try {
    const app = new ConsoleApp(page);
    await app.open(server, 'agents');
    const agents = new AgentsPage(page);
    for (const [name, agent] of [['line-a', lineA], ['line-b', lineB]] as const) {
      await agents.addAgent(name, agent.origin, agent.token);
      await expect(page.getByTestId('pinned-fingerprint')).toHaveText(agent.fingerprint!);
      await agents.addDialog.getByRole('button', { name: 'Close' }).click();
      await expect(agents.row(name)).toContainText('running');
    }
    const order = () =>
      agents.table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-agent')));
    const self = (await order())[0];

    // Filter by name: only the matching row is left.
    await page.getByLabel('Filter').fill('line-b');
    await expect(agents.table.locator('tbody tr')).toHaveCount(1);
    await expect(agents.row('line-b')).toBeVisible();
    await page.getByLabel('Filter').fill('');

    // A killed agent is unreachable within 15 s (polled every 5 s); sorted by problems it comes first after this one.
    await lineB.kill();
    await expect(agents.row('line-b').getByTestId('agent-error')).toContainText('unreachable', { timeout: 15_000 });
    await expect.poll(order).toEqual([self, 'line-a', 'line-b']);
    await page.getByLabel('Sort by').selectOption('problems first');
    await expect.poll(order).toEqual([self, 'line-b', 'line-a']);

    // line-b comes back with a renewed certificate: it is not talked to until an admin compares and re-pins it.
    fs.rmSync(path.join(lineB.dataDirectory, 'tls'), { recursive: true, force: true });
    await lineB.restart();
    const certificate = fs.readFileSync(path.join(lineB.dataDirectory, 'tls', 'cert.pem'));
    const renewed = new X509Certificate(certificate).fingerprint256;
    expect(renewed).not.toBe(lineB.fingerprint);
    const lineBError = agents.row('line-b').getByTestId('agent-error');
    await expect(lineBError).toHaveText('certificate changed', { timeout: 15_000 });
    await agents.row('line-b').getByRole('button', { name: 'Re-pin…' }).click();
    const repin = app.dialog('Trust the new certificate of "line-b"?');
    await expect(repin).toContainText(lineB.fingerprint!);
    await expect(repin.getByTestId('presented-fingerprint')).toHaveText(renewed);
    await repin.getByRole('button', { name: 'Pin the new certificate' }).click();
    await expect(agents.row('line-b').getByTestId('agent-error')).toHaveCount(0, { timeout: 15_000 });
    await expect(agents.row('line-b')).toContainText('running');

    // Removing line-a shows the certificate it forgets, and its row goes.
    await page.getByRole('button', { name: 'Remove line-a', exact: true }).click();
    const remove = app.dialog('Remove "line-a" from the fleet?');
    await expect(remove).toContainText(lineA.fingerprint!);
    await remove.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(agents.row('line-a')).toHaveCount(0);
    const headers = { authorization: `Bearer ${server.token}` };
    const fleet = await (await page.request.get(`${server.origin}/v1/fleet`, { headers })).json();
    expect(fleet.response.agents.map((agent: { name: string }) => agent.name)).toEqual([self, 'line-b']);
  } finally {
    await Promise.all([lineA.stop(), lineB.stop()]);
  }
});
