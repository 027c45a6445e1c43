import type { Locator, Page } from '@playwright/test';
import { en, type Catalog } from '../../renderer/src/i18n/messages/en.js';

/** The Tokens page: create a named token with a role (shown once), list, revoke. `texts`: the console's language (English unless given). */
export class TokensPage {
  readonly name: Locator;
  readonly role: Locator;
  readonly create: Locator;
  readonly createdToken: Locator;
  readonly table: Locator;

  constructor(
    readonly page: Page,
    readonly texts: Catalog = en,
  ) {
    const form = page.getByRole('form', { name: texts.tokens.create });
    this.name = form.getByLabel(texts.tokens.name);
    this.role = form.getByLabel(texts.tokens.role);
    this.create = form.getByRole('button', { name: texts.tokens.createButton });
    this.createdToken = page.getByTestId('created-token');
    this.table = page.getByRole('table', { name: texts.pages.tokens });
  }

  row(name: string): Locator {
    return this.table.locator(`tr[data-token="${name}"]`);
  }

  revoke(name: string): Locator {
    return this.row(name).getByRole('button', { name: this.texts.tokens.revokeButton });
  }
}
