import { DiffEditor } from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useRef } from 'react';
import type { ConfigChanges } from '../../../../shared/api/resources.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DeployChanges } from './deploy-changes.js';

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

/** Shows what will change against the saved version before anything is written. */
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
  return (
    <ConfirmDialog open={open} title="Save these changes?" confirmLabel="Save" busy={busy} wide onConfirm={onConfirm} onCancel={onCancel}>
      <p className="muted">
        Left: the saved version{lastModified ? ` (${lastModified} UTC)` : ''}. Right: what will be saved. The agent applies it at once, restarting only what changed.
        {warnings > 0 && <strong className="warning-text"> {warnings} warning(s) remain; see the problem list.</strong>}
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
          }}
          options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, automaticLayout: true }}
        />
      </div>
    </ConfirmDialog>
  );
}
