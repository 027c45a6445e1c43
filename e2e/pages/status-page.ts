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
  /** The Data flow panel's rows, one per stream. */
  readonly flowRows: Locator;
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
    this.flowRows = page.getByRole('table', { name: 'Data flow' }).locator('tbody tr[data-flow-stream]');
  }

  /** The Data flow row of a stream, e.g. demo_plant_files/Press_1:cycle. */
  flowRow(receiverAndStream: string): Locator {
    return this.flowRows.and(this.flowRows.page().locator(`[data-flow-stream="${receiverAndStream}"]`));
  }

  /** "Not getting out: …" in a stream's row: its records wait at a transmit that does not deliver. */
  deliveryProblem(receiverAndStream: string): Locator {
    return this.flowRow(receiverAndStream).getByTestId('delivery-problem');
  }

  transmit(name: string): Locator {
    return this.transmits.and(this.transmits.page().locator(`[data-transmit="${name}"]`));
  }

  /** The data-flow panel's line for the Sparkplug edge node of a transmit (its birth state). */
  sparkplugNode(transmit: string): Locator {
    return this.transmits.page().getByRole('region', { name: 'Sparkplug B edge nodes' }).locator(`[data-sparkplug-node="${transmit}"]`);
  }

  backlogChart(name: string): Locator {
    return this.transmit(name).getByTestId('backlog-chart');
  }

  /** The row of a service, e.g. receiver:demo_plant_files. */
  service(id: string): Locator {
    return this.services.locator(`tr[data-service="${id}"]`);
  }
}
