import type { Locator, Page } from '@playwright/test';

/** The API reference page: the agent's OpenAPI document rendered in the console. */
export class ApiReferencePage {
  readonly link: Locator;
  readonly heading: Locator;
  readonly download: Locator;

  constructor(readonly page: Page) {
    this.link = page.getByRole('banner').getByRole('link', { name: 'API reference' });
    this.heading = page.getByRole('heading', { level: 1, name: 'API reference' });
    this.download = page.getByRole('button', { name: 'Download openapi.json' });
  }

  group(resource: string): Locator {
    return this.page.getByRole('region', { name: `${resource} endpoints` });
  }

  /** One operation, by its operationId; its summary line opens it. */
  operation(operationId: string): Locator {
    return this.page.locator(`details[data-operation="${operationId}"]`);
  }

  /** The link to a named schema (a `$ref`) inside `scope`. */
  schemaLink(scope: Locator, name: string): Locator {
    return scope.getByRole('link', { name, exact: true }).first();
  }

  /** The summary line that opens an operation. */
  opener(operationId: string): Locator {
    return this.operation(operationId).locator(':scope > summary');
  }

  component(name: string): Locator {
    return this.page.locator(`#api-schema-${name}`);
  }
}
