/** A coloured state word: running / stopped / failed / unknown, and passed / failed for checks. */
export function StateBadge({ state, label }: { state: string; label?: string }) {
  return (
    <span className={`badge badge-${state}`} data-state={state}>
      {label && <span className="badge-label">{label}</span>}
      <span className="badge-dot" aria-hidden="true" />
      <span className="badge-text">{state}</span>
    </span>
  );
}
