/**
 * Toasts: every action (start, stop, restart, save, restream …) says its outcome in one short line.
 * A tiny provider so that any page can say it; the region is drawn once by the shell.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ToastRegion, type ToastMessage, type ToastTone } from '../components/toast-region.js';

type Show = (tone: ToastTone, text: string) => void;

const ToastContext = createContext<Show | null>(null);

/** How long a toast stays: errors longer, so that they can be read. */
const VISIBLE_MS: Record<ToastTone, number> = { ok: 6000, info: 6000, warning: 9000, error: 15_000 };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastMessage[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback<Show>(
    (tone, text) => {
      const id = next.current++;
      // The newest four at most: a burst of actions does not cover the page.
      setToasts((list) => [...list, { id, tone, text }].slice(-4));
      setTimeout(() => dismiss(id), VISIBLE_MS[tone]);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

export function useToast(): Show {
  const show = useContext(ToastContext);
  if (!show) throw new Error('ToastProvider is missing above this component.');
  return show;
}
