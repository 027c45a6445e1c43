import { useEffect, useId, useRef, type ReactNode } from 'react';

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

/** A modal question built on <dialog>: focus trap, Escape to cancel and a backdrop come for free. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', tone = 'primary', busy = false, wide = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onCancel} disabled={busy}>
              {cancelLabel}
            </button>
            <button type="button" className={`button button-${tone}`} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
