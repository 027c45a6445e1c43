import { useTranslations } from 'use-intl';
import { chooseTheme, THEME_CHOICES, useThemeChoice, type ThemeChoice } from './use-color-scheme.js';

const WORDS = { system: 'themeSystem', light: 'themeLight', dark: 'themeDark' } as const satisfies Record<ThemeChoice, string>;
const ICONS: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

/**
 * Light, dark or as the operating system says; remembered in this browser. One small button that
 * steps through the three (the header has little room left at 1024 px).
 */
export function ThemeToggle() {
  const choice = useThemeChoice();
  const t = useTranslations('header');
  const next = THEME_CHOICES[(THEME_CHOICES.indexOf(choice) + 1) % THEME_CHOICES.length]!;
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={t('theme', { choice: t(WORDS[choice]) })}
      data-theme-choice={choice}
      title={t('themeTitle', { choice: t(WORDS[choice]), system: choice === 'system' ? 'yes' : 'no', next: t(WORDS[next]) })}
      onClick={() => chooseTheme(next)}
    >
      <span aria-hidden="true">{ICONS[choice]}</span>
    </button>
  );
}
