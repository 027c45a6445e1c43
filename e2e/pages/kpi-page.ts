import type { Locator, Page } from '@playwright/test';

/** The KPI page: library, editor with validation below it, preview. */
export class KpiPage {
  readonly editor: Locator;
  readonly errorMarkers: Locator;
  readonly valid: Locator;
  readonly violations: Locator;
  readonly save: Locator;
  readonly notice: Locator;
  readonly library: Locator;
  readonly machines: Locator;
  readonly preview: Locator;
  readonly chart: Locator;
  readonly summary: Locator;
  readonly bands: Locator;
  /** Why a machine has no value, one line per machine. */
  readonly noValueReasons: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByTestId('kpi-editor');
    this.errorMarkers = this.editor.locator('.squiggly-error');
    this.valid = page.locator('.kpi-valid');
    this.violations = page.getByRole('list', { name: 'KPI violations' }).getByRole('button');
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.notice = page.locator('.page .notice');
    this.library = page.getByRole('list', { name: 'Saved KPIs' }).getByRole('button');
    this.machines = page.getByLabel('Machines');
    this.preview = page.getByRole('button', { name: 'Preview', exact: true });
    this.chart = page.getByTestId('kpi-chart');
    this.summary = page.getByRole('table', { name: 'Preview summary' });
    this.bands = page.locator('.kpi-chart .chart-legend-item[class*="kpi-band-"]');
    this.noValueReasons = page.locator('.kpi-reasons li');
  }

  template(label: 'Machine-type KPI' | 'Line KPI'): Locator {
    return this.page.getByRole('group', { name: 'New KPI from a template' }).getByRole('button', { name: label, exact: true });
  }

  line(text: string): Locator {
    return this.editor.locator('.view-line', { hasText: text });
  }

  violation(text: string | RegExp): Locator {
    return this.violations.filter({ hasText: text });
  }

  /** Puts the cursor just before the closing quote of the JSON string on the line holding `text`. */
  async cursorBeforeClosingQuote(text: string): Promise<void> {
    await this.line(text).click();
    await this.page.keyboard.press('End');
    // The line ends with `",`: step back over the comma and the quote.
    await this.page.keyboard.press('ArrowLeft');
    await this.page.keyboard.press('ArrowLeft');
  }
}
