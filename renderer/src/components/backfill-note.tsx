import { text } from '../i18n/language.js';
import type { BackfillProgress } from '../../../shared/api/resources.js';
import { consoleLocale, formatNumber } from '../format/locale.js';

const hhmm = (iso: string) => new Intl.DateTimeFormat(consoleLocale(), { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

/** An OPC UA history backfill under way: the span it reads and the values read so far. */
export function BackfillNote({ backfill }: { backfill: BackfillProgress }) {
  return (
    <div className="muted small" data-testid="backfill-progress" title={text('notes.backfillTitle', { from: backfill.from, to: backfill.to })}>
      {text('notes.backfill', { from: hhmm(backfill.from), to: hhmm(backfill.to), count: formatNumber(backfill.read) })}
    </div>
  );
}
