import type { Locator, Page } from '@playwright/test';

/** The Tokens page: create a named token with a role (shown once), list, revoke. */
export class TokensPage {
  readonly name: Locator;
  readonly role: Locator;
  readonly create: Locator;
  readonly createdToken: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    const form = page.getByRole('form', { name: 'Create a token' });
    this.name = form.getByLabel('Name');
    this.role = form.getByLabel('Role');
    this.create = form.getByRole('button', { name: 'Create token' });
    this.createdToken = page.getByTestId('created-token');
    this.table = page.getByRole('table', { name: 'Tokens' });
  }

  row(name: string): Locator {
    return this.table.locator(`tr[data-token="${name}"]`);
  }

  revoke(name: string): Locator {
    return this.row(name).getByRole('button', { name: 'Revoke…' });
  }
}
