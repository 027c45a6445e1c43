import { agentTextOf } from '../i18n/agent-text.js';
import { text } from '../i18n/language.js';
import type { QualityFinding } from '../../../shared/api/resources.js';
import { LocalTime } from './local-time.js';

/** The open findings of the data-quality watch of one stream: what, in words, and since when. */
export function QualityNote({ findings }: { findings: readonly QualityFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="quality-note small warning-text" data-testid="quality-findings">
      {findings.map((finding) => (
        <li key={`${finding.check}:${finding.field ?? ''}`} data-quality-check={finding.check} data-quality-field={finding.field ?? ''}>
          <span className="pill pill-warning">{text(`quality.checks.${finding.check}`)}</span> {agentTextOf(finding, finding.detail)}{' '}
          <span className="muted">{text.rich('notes.since', { time: () => <LocalTime value={finding.since} /> })}</span>
        </li>
      ))}
    </ul>
  );
}
