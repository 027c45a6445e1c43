import { chooseTheme, THEME_CHOICES, useThemeChoice, type ThemeChoice } from './use-color-scheme.js';

const WORDS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICONS: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

/**
 * Light, dark or as the operating system says; remembered in this browser. One small button that
 * steps through the three (the header has little room left at 1024 px).
 */
export function ThemeToggle() {
  const choice = useThemeChoice();
  const next = THEME_CHOICES[(THEME_CHOICES.indexOf(choice) + 1) % THEME_CHOICES.length]!;
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={`Theme: ${WORDS[choice]}`}
      data-theme-choice={choice}
      title={`Theme: ${WORDS[choice]}${choice === 'system' ? ' (as the operating system is set)' : ''}. Click for ${WORDS[next]}. Remembered in this browser.`}
      onClick={() => chooseTheme(next)}
    >
      <span aria-hidden="true">{ICONS[choice]}</span>
    </button>
  );
}
