import { showAgentTime, showTime } from '../format/time.js';

/**
 * A time as the console shows every time: local, with the zone; UTC on hover. `value` is an agent
 * time (ISO 8601 or the spec form, UTC) or epoch milliseconds.
 */
export function LocalTime({ value, millis = false, className }: { value: string | number | null | undefined; millis?: boolean; className?: string }) {
  if (value === null || value === undefined || value === '') return <span className={className}>—</span>;
  const shown = typeof value === 'number' ? showTime(value, { millis }) : showAgentTime(value, { millis });
  if (!shown) return <span className={className}>{String(value)}</span>;
  return (
    <time className={className} dateTime={shown.iso} title={shown.utc}>
      {shown.text}
    </time>
  );
}
