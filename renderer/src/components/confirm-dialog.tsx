import type { ReactNode } from 'react';
import { DialogFrame } from './dialog-frame.js';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Danger styles the confirm button red: the action stops or repeats data flow. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  wide?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question: Cancel (also Escape, unless the action is under way) or confirm. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', tone = 'primary', busy = false, wide = false, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <DialogFrame
      open={open}
      title={title}
      wide={wide}
      onEscape={() => {
        if (!busy) onCancel();
      }}
      footer={
        <>
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className={`button button-${tone}`} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </DialogFrame>
  );
}
