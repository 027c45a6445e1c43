/**
 * A bar of how far something went (a file being read): the native <progress> element, so that
 * screen readers and tests read its value, with the amount in words beside it.
 */
export function ProgressBar({ label, value, max, text, testId }: { label: string; value: number; max: number; text: string; testId?: string }) {
  return (
    <div className="progress" data-testid={testId}>
      <progress aria-label={label} value={value} max={max > 0 ? max : 1} />
      <span className="progress-text muted small">{text}</span>
    </div>
  );
}
