import { DiffEditor } from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useMemo, useRef } from 'react';
import type { ConfigChanges } from '../../../../shared/api/resources.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { plural } from '../../format/quantities.js';
import { describeChanges, summaryLine } from './change-summary.js';
import { DeployChanges } from './deploy-changes.js';
import { readDocument } from './document-text.js';

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
  // The wrapper would dispose the models before the diff widget lets go of them (a page error);
  // keep them, and dispose them here once the widget is gone.
  const models = useRef<editor.ITextModel[]>([]);
  useEffect(() => {
    if (!open) return;
    return () => {
      const stale = models.current;
      models.current = [];
      setTimeout(() => stale.forEach((model) => model.dispose()), 0);
    };
  }, [open]);
  const summary = useMemo(() => (open ? summaryLine(describeChanges(readDocument(saved).document, readDocument(draft).document), saved !== draft) : ''), [open, saved, draft]);
  return (
    <ConfirmDialog open={open} title="Save these changes?" confirmLabel="Save" busy={busy} wide onConfirm={onConfirm} onCancel={onCancel}>
      <p className="change-summary" data-testid="change-summary">
        {summary}
      </p>
      <p className="muted small">
        Left: the saved version{lastModified ? <> (<LocalTime value={lastModified} />)</> : ''}. Right: what will be saved. The agent applies it at once, restarting only what changed.
        {warnings > 0 && <strong className="warning-text"> {plural(warnings, 'warning')} remain; see the problem list.</strong>}
      </p>
      <DeployChanges changes={changes} />
      <div className="diff-box" data-testid="save-diff">
        <DiffEditor
          original={saved}
          modified={draft}
          language="json"
          theme={theme}
          keepCurrentOriginalModel
          keepCurrentModifiedModel
          onMount={(diff) => {
            const { original, modified } = diff.getModel() ?? {};
            models.current = [original, modified].filter((model): model is editor.ITextModel => model !== undefined);
            // Open at the first change: line 1 of two equal texts tells nothing.
            const reveal = diff.onDidUpdateDiff(() => {
              const first = diff.getLineChanges()?.[0];
              if (!first) return;
              const line = Math.max(1, first.modifiedStartLineNumber || first.originalStartLineNumber);
              diff.getModifiedEditor().revealLineInCenter(line);
              reveal.dispose();
            });
          }}
          options={{
            readOnly: true,
            renderSideBySide: true,
            minimap: { enabled: false },
            scrollBeyondLastLine: false,
            automaticLayout: true,
            hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
          }}
        />
      </div>
    </ConfirmDialog>
  );
}
