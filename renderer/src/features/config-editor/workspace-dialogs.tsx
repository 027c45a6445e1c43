import { text as catalogText } from '../../i18n/language.js';
import { useMemo } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { CopyDialog } from './copy-dialog.js';
import { readDocument } from './document-text.js';
import { HistoryPanel } from './history-panel.js';
import { PreviewDialog } from './preview-dialog.js';
import { receiverNames } from './problems.js';
import { SaveDialog } from './save-dialog.js';
import type { Baseline, useConfigSave } from './use-config-save.js';

interface WorkspaceDialogsProps {
  saveFlow: ReturnType<typeof useConfigSave>;
  baseline: Baseline;
  text: string;
  /** Warnings in the problem list (the save dialog names them). */
  warnings: number;
  theme: string;
  askDiscard: boolean;
  onDiscard: () => void;
  onKeep: () => void;
  showHistory: boolean;
  canRestore: boolean;
  onCloseHistory: () => void;
  onRestore: (text: string, revision: number) => void;
  copying: boolean;
  onCloseCopy: () => void;
  previewing: { receiver: string | undefined } | null;
  /** The caller may preview unsaved text (else the saved configuration is previewed). */
  previewUnsaved: boolean;
  onClosePreview: () => void;
}

/** The configuration page's dialogs: save review, discard, history, copy to another agent, preview. */
export function WorkspaceDialogs(props: WorkspaceDialogsProps) {
  const { saveFlow, baseline, text, theme, previewing } = props;
  const savedDocument = useMemo(() => readDocument(baseline.text).document as Record<string, unknown>, [baseline.text]);
  return (
    <>
      <SaveDialog
        open={saveFlow.reviewing}
        saved={baseline.text}
        draft={text}
        lastModified={baseline.lastModified}
        warnings={props.warnings}
        changes={saveFlow.changes}
        busy={saveFlow.saving}
        theme={theme}
        onCancel={saveFlow.cancelReview}
        onConfirm={saveFlow.confirmSave}
      />
      <ConfirmDialog open={props.askDiscard} title={catalogText('config.discardTitle')} confirmLabel={catalogText('config.discard')} tone="danger" onConfirm={props.onDiscard} onCancel={props.onKeep}>
        <p>{baseline.lastModified ? catalogText.rich('config.discardTextOf', { time: () => <LocalTime value={baseline.lastModified!} /> }) : catalogText('config.discardText')}</p>
      </ConfirmDialog>
      <HistoryPanel open={props.showHistory} current={baseline.text} theme={theme} canRestore={props.canRestore} onClose={props.onCloseHistory} onRestore={props.onRestore} />
      {props.copying && <CopyDialog open source={savedDocument} theme={theme} onClose={props.onCloseCopy} />}
      <PreviewDialog
        open={previewing !== null}
        document={previewing && props.previewUnsaved ? readDocument(text).document : undefined}
        receivers={previewing ? receiverNames(readDocument(text).document) : []}
        initialReceiver={previewing?.receiver}
        onClose={props.onClosePreview}
      />
    </>
  );
}
