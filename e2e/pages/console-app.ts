import { expect, type Locator, type Page } from '@playwright/test';
import type { ConsoleServer } from '../fixtures/console-server.js';

export type PageName = 'Status' | 'Configuration' | 'Streams' | 'Logs' | 'KPIs' | 'Agents' | 'Tokens';
const PAGE_IDS: Record<PageName, string> = { Status: 'status', Configuration: 'configuration', Streams: 'streams', Logs: 'logs', KPIs: 'kpis', Agents: 'agents', Tokens: 'tokens' };

/** The shell: opening the console, the ready signal, the main navigation, toasts, the connection banner. */
export class ConsoleApp {
  readonly root: Locator;
  readonly readyRoot: Locator;
  readonly headerAgentState: Locator;
  /** The header's token name and role, and whether the connection is encrypted. */
  readonly sessionToken: Locator;
  readonly sessionSecurity: Locator;
  readonly connectionBanner: Locator;
  readonly skipLink: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator('[data-app-state]').first();
    this.readyRoot = page.locator('[data-app-state="ready"]');
    this.headerAgentState = page.locator('.header-state');
    this.sessionToken = page.getByTestId('session-token');
    this.sessionSecurity = page.getByTestId('session-security');
    this.connectionBanner = page.getByTestId('connection-banner');
    this.skipLink = page.getByRole('link', { name: 'Skip to content' });
    this.main = page.locator('main#main-content');
  }

  /** A page's link in the main navigation, found by where it leads: the same in every language. */
  navLink(name: PageName): Locator {
    return this.page.locator(`.app-nav a[href="#/${PAGE_IDS[name]}"]`);
  }

  /** The header's language choice. */
  get languageChoice(): Locator {
    return this.page.getByTestId('language-choice');
  }

  /** The header's managed-agent badge and its "Managing" word. */
  get managedAgent(): Locator {
    return this.page.getByTestId('managed-agent');
  }

  /** Opens the link the server printed (token included), optionally at a page, and waits for data. */
  async open(server: ConsoleServer, hashPage?: string): Promise<void> {
    await this.page.goto(`${server.origin}/?token=${encodeURIComponent(server.token)}${hashPage ? `#/${hashPage}` : ''}`);
    await expect(this.readyRoot).toBeVisible();
  }

  async goTo(name: PageName): Promise<void> {
    await this.navLink(name).click();
    await expect(this.navLink(name)).toHaveAttribute('aria-current', 'page');
  }

  dialog(name: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /**
   * The focus ring of the focused element as drawn: its outline style and the contrast of its
   * colour against the background it is drawn on (the nearest opaque background behind it).
   */
  async focusRing(): Promise<{ style: string; width: number; contrast: number }> {
    return this.page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return { style: 'none', width: 0, contrast: 0 };
      const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
        const channel = (v: number) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      };
      const style = getComputedStyle(element);
      // The ring sits outside the element (outline-offset): what is behind it is the parent's background.
      let behind: HTMLElement | null = element.parentElement;
      let background = 'rgb(255, 255, 255)';
      while (behind) {
        const color = getComputedStyle(behind).backgroundColor;
        const parts = rgb(color);
        if (parts.length >= 3 && (parts.length === 3 || parts[3]! > 0.5)) {
          background = color;
          break;
        }
        behind = behind.parentElement;
      }
      const [a, b] = [luminance(rgb(style.outlineColor)), luminance(rgb(background))];
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
    });
  }

  /** A toast (the outcome of an action) containing `text`. */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: 'Notifications' }).locator('.toast', { hasText: text });
  }
}
