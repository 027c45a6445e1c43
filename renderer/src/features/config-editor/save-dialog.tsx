import { text } from '../../i18n/language.js';
import { useEffect, useMemo, useState } from 'react';
import type { ConfigChanges, RestreamRequest } from '../../../../shared/api/resources.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { describeChanges, summaryLine } from '../../../../shared/config/change-summary.js';
import { agentText } from '../../i18n/agent-text.js';
import { ConfigDiff } from './config-diff.js';
import { DeployChanges } from './deploy-changes.js';
import { readDocument } from './document-text.js';
import { useTargetAgentName } from '../../app/managed-agent-badge.js';
import { NewTransmitNotice } from './new-transmit-notice.js';
import { newTransmits, restreamRequest } from './new-transmits.js';

interface SaveDialogProps {
  open: boolean;
  saved: string;
  draft: string;
  lastModified: string | null;
  warnings: number;
  /** What saving does to the running agent (from the validation right before). */
  changes: ConfigChanges | undefined;
  busy: boolean;
  theme: string;
  /** Saves; `restream`: the streams chosen to be sent again to a new transmit (after the save). */
  onConfirm: (restream?: RestreamRequest) => void;
  onCancel: () => void;
}

/**
 * What will change against the saved version, before anything is written: a one-line summary by
 * name (adds receiver local_files …), what the running agent will restart and keep, then the diff,
 * opened at the first change with the unchanged stretches folded away.
 */
export function SaveDialog({ open, saved, draft, lastModified, warnings, changes, busy, theme, onConfirm, onCancel }: SaveDialogProps) {
  const target = useTargetAgentName();
  const summary = useMemo(() => (open ? summaryLine(describeChanges(readDocument(saved).document, readDocument(draft).document), saved !== draft, (m) => agentText(m.code, m.params, m.text)) : ''), [open, saved, draft]);
  const added = useMemo(() => (open ? newTransmits(readDocument(saved).document as Record<string, unknown>, readDocument(draft).document as Record<string, unknown>) : []), [open, saved, draft]);
  // Each stream once, whichever of the new transmits takes it.
  const choices = useMemo(() => [...new Map(added.flatMap((t) => t.streams).map((s) => [s.key, s])).values()], [added]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  // Each review starts with nothing chosen.
  useEffect(() => {
    if (!open) setPicked(new Set());
  }, [open]);
  const restream = restreamRequest(choices, picked);
  const confirmLabel = restream ? text('config.saveAndRestream', { agent: target }) : text('config.saveConfirm', { agent: target });
  return (
    <ConfirmDialog open={open} title={text('config.saveTitle', { agent: target })} confirmLabel={confirmLabel} busy={busy} wide onConfirm={() => onConfirm(restream)} onCancel={onCancel}>
      <p className="change-summary" data-testid="change-summary">
        {summary}
      </p>
      <p className="muted small">
        {lastModified ? text.rich('config.saveDiffOf', { time: () => <LocalTime value={lastModified} /> }) : text('config.saveDiff')}
        {warnings > 0 && <strong className="warning-text">{text('config.remaining', { count: warnings })}</strong>}
      </p>
      <NewTransmitNotice transmits={added} choices={choices} picked={picked} onPick={setPicked} />
      <DeployChanges changes={changes} />
      {open && <ConfigDiff original={saved} modified={draft} theme={theme} testId="save-diff" />}
    </ConfirmDialog>
  );
}
