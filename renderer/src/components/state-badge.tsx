import { text } from '../i18n/language.js';

const STATE_WORDS = new Set(['running', 'stopped', 'failed', 'unknown', 'degraded', 'unreachable', 'passed', 'starting', 'stopping', 'idle', 'ok']);

/** A state the agent reports, in the console's language (an unknown one as the agent wrote it). */
export function stateWord(state: string): string {
  return STATE_WORDS.has(state) ? text(`states.${state as 'running'}`) : state;
}

/**
 * A coloured state word: running / stopped / failed / unknown, degraded and unreachable (amber and
 * red, for the console's own judgement), and passed / failed for checks. `text` replaces the word.
 */
export function StateBadge({ state, label, text: shownText, title }: { state: string; label?: string; text?: string; title?: string }) {
  return (
    <span className={`badge badge-${state}`} data-state={state} title={title}>
      {label && <span className="badge-label">{label}</span>}
      <span className="badge-dot" aria-hidden="true" />
      <span className="badge-text">{shownText ?? stateWord(state)}</span>
    </span>
  );
}
