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
  if (masked === 0) return { tone: 'ok', text: `Loaded ${name} into the editor. Review it, then Save… (Undo brings the previous text back).` };
  return {
    tone: 'warning',
    text:
      `Loaded ${name} into the editor. It has ${masked === 1 ? '1 masked secret' : `${masked} masked secrets`} (********): ` +
      'each keeps the value saved on this agent for the same receiver or transmit; where there is none (a file from another agent), ' +
      'type the password or API key again before saving.',
  };
}
