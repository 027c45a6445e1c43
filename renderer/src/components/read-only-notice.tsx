import { text } from '../i18n/language.js';
import type { ActionGate } from '../api/index.js';

/**
 * Said at the top of an editor page when the token's role may not save what it shows (issue 56):
 * the editor is read-only and nothing that would change anything is offered.
 */
export function ReadOnlyNotice({ gate, what }: { gate: ActionGate; what: 'configuration' | 'kpis' }) {
  if (gate.allowed) return null;
  return (
    <p className="notice notice-compact read-only-notice" role="note" data-testid="read-only-notice">
      <strong>{text('notes.readOnly')}</strong> {what === 'configuration' ? text('notes.readOnlyConfig') : text('notes.readOnlyKpis')} {gate.title}
    </p>
  );
}
