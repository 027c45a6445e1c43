import type { BackfillProgress } from '../../../shared/api/resources.js';
import { consoleLocale, formatNumber } from '../format/locale.js';

const hhmm = (iso: string) => new Intl.DateTimeFormat(consoleLocale(), { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** An OPC UA history backfill under way: the span it reads and the values read so far. */
export function BackfillNote({ backfill }: { backfill: BackfillProgress }) {
  return (
    <div className="muted small" data-testid="backfill-progress" title={`Reading the server's history from ${backfill.from} to ${backfill.to}`}>
      reading history {hhmm(backfill.from)}–{hhmm(backfill.to)} … ({formatNumber(backfill.read)} values)
    </div>
  );
}
