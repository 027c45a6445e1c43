import { DiffEditor } from '@monaco-editor/react';
import { ConfirmDialog } from '../../components/confirm-dialog.js';

interface SaveDialogProps {
  open: boolean;
  saved: string;
  draft: string;
  lastModified: string | null;
  warnings: number;
  busy: boolean;
  theme: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Shows what will change against the saved version before anything is written. */
export function SaveDialog({ open, saved, draft, lastModified, warnings, busy, theme, onConfirm, onCancel }: SaveDialogProps) {
  return (
    <ConfirmDialog open={open} title="Save these changes?" confirmLabel="Save" busy={busy} wide onConfirm={onConfirm} onCancel={onCancel}>
      <p className="muted">
        Left: the saved version{lastModified ? ` (${lastModified} UTC)` : ''}. Right: what will be saved. The agent applies it at once.
        {warnings > 0 && <strong className="warning-text"> {warnings} warning(s) remain; see the problem list.</strong>}
      </p>
      <div className="diff-box" data-testid="save-diff">
        <DiffEditor
          original={saved}
          modified={draft}
          language="json"
          theme={theme}
          originalModelPath="inmemory://tributary/saved.json"
          modifiedModelPath="inmemory://tributary/draft.json"
          options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, automaticLayout: true }}
        />
      </div>
    </ConfirmDialog>
  );
}
