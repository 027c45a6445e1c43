import type { Locator, Page } from '@playwright/test';

export class StatusPage {
  readonly agentState: Locator;
  readonly start: Locator;
  readonly stop: Locator;
  readonly restart: Locator;
  readonly services: Locator;
  readonly loadChart: Locator;
  readonly updated: Locator;
  readonly transmits: Locator;
  /** The alert listing what the agent cannot write (full disk, unwritable folder). */
  readonly storageProblems: Locator;

  constructor(page: Page) {
    const agentCard = page.locator('.agent-card');
    this.agentState = agentCard.locator('[data-state]');
    this.start = agentCard.getByRole('button', { name: 'Start', exact: true });
    this.stop = agentCard.getByRole('button', { name: 'Stop', exact: true });
    this.restart = agentCard.getByRole('button', { name: 'Restart', exact: true });
    this.services = page.getByRole('table', { name: 'Services' });
    this.loadChart = page.getByRole('img', { name: /^Machine load history/ });
    this.updated = page.getByTestId('status-updated');
    this.transmits = page.locator('.transmit');
    this.storageProblems = page.getByTestId('storage-problems');
  }

  /** The row of a service, e.g. receiver:demo_plant_files. */
  service(id: string): Locator {
    return this.services.locator(`tr[data-service="${id}"]`);
  }
}
