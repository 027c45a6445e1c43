import type { BackfillProgress } from '../../../shared/api/resources.js';

const hhmm = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** An OPC UA history backfill under way: the span it reads and the values read so far. */
export function BackfillNote({ backfill }: { backfill: BackfillProgress }) {
  return (
    <div className="muted small" data-testid="backfill-progress" title={`Reading the server's history from ${backfill.from} to ${backfill.to}`}>
      reading history {hhmm(backfill.from)}–{hhmm(backfill.to)} … ({backfill.read.toLocaleString('en-US')} values)
    </div>
  );
}
