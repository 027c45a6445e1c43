import { useSyncExternalStore } from 'react';

/**
 * The console's theme: light, dark, or the operating system's setting ("system", the default).
 * The choice is kept in this browser's local storage (a display preference, nothing secret) and set
 * as `data-theme` on <html>, where the CSS variables of base.css pick it up.
 */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = 'tributary.theme';
const CHANGED = 'tributary-theme-change';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

export function readThemeChoice(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): ThemeChoice {
  const stored = storage?.getItem(STORAGE_KEY);
  return (THEME_CHOICES as readonly string[]).includes(stored ?? '') ? (stored as ThemeChoice) : 'system';
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    // Storage refused (a locked-down browser profile): the theme follows the system.
    return undefined;
  }
}

/** Sets the theme on the page; `system` leaves it to the operating system's setting. */
export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** Remembers and applies a choice; every user of the theme hears of it. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Not remembered, but applied for this page.
  }
  applyTheme(choice);
  window.dispatchEvent(new Event(CHANGED));
}

function subscribe(listener: () => void): () => void {
  const media = query();
  media.addEventListener('change', listener);
  window.addEventListener(CHANGED, listener);
  // Another tab or window of the console changed it.
  window.addEventListener('storage', listener);
  return () => {
    media.removeEventListener('change', listener);
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener('storage', listener);
  };
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, () => readThemeChoice());
}

/** Whether the console is dark now: the choice, or the operating system's setting (Monaco's theme is not CSS). */
export function useDarkMode(): boolean {
  return useSyncExternalStore(subscribe, () => {
    const choice = readThemeChoice();
    return choice === 'dark' || (choice === 'system' && query().matches);
  });
}
