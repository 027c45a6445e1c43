import { text } from '../i18n/language.js';

export type ToastTone = 'ok' | 'warning' | 'error' | 'info';

export interface ToastMessage {
  id: number;
  tone: ToastTone;
  text: string;
}

/**
 * Outcomes of actions (saved, restarted, restream accepted …) in the corner, read out by screen
 * readers: errors as alerts, the rest politely.
 */
export function ToastRegion({ toasts, onDismiss }: { toasts: readonly ToastMessage[]; onDismiss: (id: number) => void }) {
  return (
    <section className="toasts" aria-label={text('notes.notifications')}>
      <div role="status" aria-live="polite" className="toast-stack">
        {toasts
          .filter((t) => t.tone !== 'error')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
          ))}
      </div>
      <div role="alert" className="toast-stack">
        {toasts
          .filter((t) => t.tone === 'error')
          .map((toast) => (
            <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
          ))}
      </div>
    </section>
  );
}

function Toast({ toast, onDismiss }: { toast: ToastMessage; onDismiss: (id: number) => void }) {
  return (
    <div className={`toast toast-${toast.tone}`} data-tone={toast.tone}>
      <span className="toast-text">{toast.text}</span>
      <button type="button" className="toast-close" aria-label={text('notes.dismiss')} onClick={() => onDismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}
