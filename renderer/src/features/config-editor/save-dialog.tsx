import { useMemo } from 'react';
import type { ConfigChanges } from '../../../../shared/api/resources.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { plural } from '../../format/quantities.js';
import { describeChanges, summaryLine } from './change-summary.js';
import { ConfigDiff } from './config-diff.js';
import { DeployChanges } from './deploy-changes.js';
import { readDocument } from './document-text.js';
import { useTargetAgentName } from '../../app/managed-agent-badge.js';

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
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * What will change against the saved version, before anything is written: a one-line summary by
 * name (adds receiver local_files …), what the running agent will restart and keep, then the diff,
 * opened at the first change with the unchanged stretches folded away.
 */
export function SaveDialog({ open, saved, draft, lastModified, warnings, changes, busy, theme, onConfirm, onCancel }: SaveDialogProps) {
  const target = useTargetAgentName();
  const summary = useMemo(() => (open ? summaryLine(describeChanges(readDocument(saved).document, readDocument(draft).document), saved !== draft) : ''), [open, saved, draft]);
  return (
    <ConfirmDialog open={open} title={`Save these changes to ${target}?`} confirmLabel={`Save to ${target}`} busy={busy} wide onConfirm={onConfirm} onCancel={onCancel}>
      <p className="change-summary" data-testid="change-summary">
        {summary}
      </p>
      <p className="muted small">
        Left: the saved version{lastModified ? <> (<LocalTime value={lastModified} />)</> : ''}. Right: what will be saved. The agent applies it at once, restarting only what changed.
        {warnings > 0 && <strong className="warning-text"> {plural(warnings, 'warning')} remain; see the problem list.</strong>}
      </p>
      <DeployChanges changes={changes} />
      {open && <ConfigDiff original={saved} modified={draft} theme={theme} testId="save-diff" />}
    </ConfirmDialog>
  );
}
