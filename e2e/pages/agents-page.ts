import type { Locator, Page } from '@playwright/test';

/** The Agents page: the fleet's rows, the add dialog, the switch. */
export class AgentsPage {
  readonly table: Locator;
  readonly add: Locator;
  readonly addDialog: Locator;
  /** The header's name of the agent every page manages. */
  readonly managed: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Agents' });
    this.add = page.getByRole('button', { name: 'Add agent…' });
    this.addDialog = page.getByRole('dialog');
    this.managed = page.getByTestId('managed-agent');
  }

  row(name: string): Locator {
    return this.table.locator(`tr[data-agent="${name}"]`);
  }

  async addAgent(name: string, url: string, token: string): Promise<void> {
    await this.add.click();
    await this.addDialog.getByLabel('Name').fill(name);
    await this.addDialog.getByLabel('Address').fill(url);
    await this.addDialog.getByLabel('API token of that agent').fill(token);
    await this.addDialog.getByRole('button', { name: 'Add agent' }).click();
  }

  manage(name: string): Locator {
    return this.page.getByRole('button', { name: `Manage ${name}`, exact: true });
  }
}
