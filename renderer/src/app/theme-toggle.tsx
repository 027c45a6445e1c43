import { chooseTheme, THEME_CHOICES, useThemeChoice, type ThemeChoice } from './use-color-scheme.js';

const WORDS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Light, dark or as the operating system says; remembered in this browser. */
export function ThemeToggle() {
  const choice = useThemeChoice();
  return (
    <label className="theme-toggle" title="Colours of the console: light, dark, or as the operating system is set. Remembered in this browser.">
      <span className="theme-toggle-label">Theme</span>
      <select aria-label="Theme" value={choice} onChange={(event) => chooseTheme(event.target.value as ThemeChoice)}>
        {THEME_CHOICES.map((option) => (
          <option key={option} value={option}>
            {WORDS[option]}
          </option>
        ))}
      </select>
    </label>
  );
}
