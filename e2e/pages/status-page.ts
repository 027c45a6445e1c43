import type { Locator, Page } from '@playwright/test';

export class StatusPage {
  readonly agentState: Locator;
  readonly start: Locator;
  readonly stop: Locator;
  readonly restart: Locator;
  readonly services: Locator;
  readonly cpuChart: Locator;

  constructor(page: Page) {
    const agentCard = page.locator('.agent-card');
    this.agentState = agentCard.locator('[data-state]');
    this.start = agentCard.getByRole('button', { name: 'Start', exact: true });
    this.stop = agentCard.getByRole('button', { name: 'Stop', exact: true });
    this.restart = agentCard.getByRole('button', { name: 'Restart', exact: true });
    this.services = page.getByRole('table', { name: 'Services' });
    this.cpuChart = page.getByRole('img', { name: /^CPU history/ });
  }
}
