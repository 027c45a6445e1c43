import type { ActionGate } from '../api/index.js';

/**
 * Said at the top of an editor page when the token's role may not save what it shows (issue 56):
 * the editor is read-only and nothing that would change anything is offered.
 */
export function ReadOnlyNotice({ gate, what }: { gate: ActionGate; what: string }) {
  if (gate.allowed) return null;
  return (
    <p className="notice notice-compact read-only-notice" role="note" data-testid="read-only-notice">
      <strong>Read-only.</strong> You can read and validate {what}, not change {what === 'the configuration' ? 'it' : 'them'}. {gate.title}
    </p>
  );
}
