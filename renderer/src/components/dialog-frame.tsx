import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogFrameProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The buttons at the bottom. */
  footer: ReactNode;
  wide?: boolean;
  /** Escape (the dialog's cancel event): the caller decides what it means. */
  onEscape: () => void;
}

/** A modal panel on <dialog>: focus trap, Escape and a backdrop come for free. */
export function DialogFrame({ open, title, children, footer, wide = false, onEscape }: DialogFrameProps) {
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
        onEscape();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div className="dialog-body">{children}</div>
          <div className="dialog-actions">{footer}</div>
        </>
      )}
    </dialog>
  );
}
