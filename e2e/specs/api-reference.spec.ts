import { AxeBuilder } from '@axe-core/playwright';
import { ApiReferencePage } from '../pages/api-reference-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

// The fixture fails the test on any request that leaves the machine: the reference is bundled.
test('the console links to the API reference, rendered from the agent’s own OpenAPI document', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  const reference = new ApiReferencePage(page);
  await reference.link.click();
  await expect(reference.heading).toBeVisible();
  await expect(page).toHaveURL(/#\/api$/);

  // Every endpoint group is there; an operation opens to its parameters and answer.
  await expect(reference.group('status')).toContainText('/v1/status');
  const history = reference.operation('getHistory');
  await reference.opener('getHistory').click();
  await expect(history.getByRole('table', { name: 'Parameters of getHistory' })).toContainText('minutes');

  // Saving a configuration takes the Configuration schema: its link leads to the component, which
  // names the recursive JSON values by link instead of unfolding them.
  const save = reference.operation('saveConfig');
  await reference.opener('saveConfig').click();
  await reference.schemaLink(save, 'Configuration').click();
  await expect(reference.component('Configuration')).toBeFocused();
  await expect(reference.component('Configuration')).toContainText('data_receiver');
  await expect(reference.component('JsonValue')).toContainText('array of');

  // Readable by everyone: no serious or critical axe findings on the page as opened.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} — ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);

  // The raw document can be taken along, e.g. for a client generator.
  const [download] = await Promise.all([page.waitForEvent('download'), reference.download.click()]);
  expect(download.suggestedFilename()).toBe('tributary-openapi.json');
});
