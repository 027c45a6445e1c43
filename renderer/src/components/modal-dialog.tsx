import { text } from '../i18n/language.js';
import type { ReactNode } from 'react';
import { DialogFrame } from './dialog-frame.js';

interface ModalDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Buttons at the bottom; a Close button is always there. */
  actions?: ReactNode;
  wide?: boolean;
  onClose: () => void;
}

/** A modal panel that only informs: Close, maybe actions. */
export function ModalDialog({ open, title, children, actions, wide = false, onClose }: ModalDialogProps) {
  return (
    <DialogFrame
      open={open}
      title={title}
      wide={wide}
      onEscape={onClose}
      footer={
        <>
          {actions}
          <button type="button" className="button" onClick={onClose}>
            {text('common.close')}
          </button>
        </>
      }
    >
      {children}
    </DialogFrame>
  );
}
