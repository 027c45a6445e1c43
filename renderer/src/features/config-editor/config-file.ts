import { text as text_ } from '../../i18n/language.js';
import { SECRET_MASK } from '../../../../shared/config/schema.js';

/** Offers the saved configuration (secrets masked, as the editor shows it) as a file to keep or move. */
export function downloadConfiguration(text: string, revision: number | null): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = revision === null ? 'tributary-config.json' : `tributary-config-rev${revision}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** How many secret values of an uploaded file are masks: they keep this agent's saved value, or must be typed again. */
export function maskedSecretsIn(text: string): number {
  return text.split(`"${SECRET_MASK}"`).length - 1;
}

/** The notice after a file was put into the editor. */
export function uploadNotice(name: string, text: string): { tone: 'ok' | 'warning'; text: string } {
  const masked = maskedSecretsIn(text);
  if (masked === 0) return { tone: 'ok', text: text_('notices.loaded', { file: name }) };
  return { tone: 'warning', text: text_('notices.loadedMasked', { file: name, count: masked }) };
}
