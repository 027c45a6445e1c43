/**
 * A coloured state word: running / stopped / failed / unknown, degraded and unreachable (amber and
 * red, for the console's own judgement), and passed / failed for checks. `text` replaces the word.
 */
export function StateBadge({ state, label, text, title }: { state: string; label?: string; text?: string; title?: string }) {
  return (
    <span className={`badge badge-${state}`} data-state={state} title={title}>
      {label && <span className="badge-label">{label}</span>}
      <span className="badge-dot" aria-hidden="true" />
      <span className="badge-text">{text ?? state}</span>
    </span>
  );
}
