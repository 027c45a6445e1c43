/**
 * Hash routing (#/streams): works the same over HTTP and from disk in Electron, with no router
 * package. Pages with unsaved work register a guard; leaving them then asks first.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { ConfirmDialog } from '../components/confirm-dialog.js';

/** The main navigation's pages; their names are the catalog's `pages.<id>`. */
export const PAGES = [
  { id: 'status' },
  { id: 'configuration' },
  { id: 'streams' },
  { id: 'logs' },
  { id: 'kpis' },
  { id: 'agents' },
  // Shown to admins only (app-shell.tsx).
  { id: 'tokens' },
] as const;
/** Pages reached from a link of their own rather than the main navigation. */
export const LINKED_PAGES = [{ id: 'api' }, { id: 'help' }] as const;
export type PageId = (typeof PAGES)[number]['id'] | (typeof LINKED_PAGES)[number]['id'];

export function pageFromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return [...PAGES, ...LINKED_PAGES].find((page) => page.id === id)?.id ?? 'status';
}

interface NavigationValue {
  page: PageId;
  navigate: (page: PageId) => void;
  /** A message while the current page has unsaved work; null when leaving is harmless. */
  setGuard: (message: string | null) => void;
}

const NavigationContext = createContext<NavigationValue | null>(null);

export function NavigationProvider({ children }: { children: ReactNode }) {
  const [page, setPage] = useState<PageId>(() => pageFromHash(window.location.hash));
  const [pending, setPending] = useState<PageId | null>(null);
  const guard = useRef<string | null>(null);
  const current = useRef(page);
  current.current = page;

  useEffect(() => {
    const onHashChange = () => {
      const next = pageFromHash(window.location.hash);
      if (next === current.current) return;
      if (guard.current) {
        // Back/forward or a typed address: put the address back and ask first.
        window.history.replaceState(window.history.state, '', `#/${current.current}`);
        setPending(next);
        return;
      }
      setPage(next);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const navigate = useCallback((next: PageId) => {
    if (next === current.current) return;
    if (guard.current) setPending(next);
    else window.location.hash = `#/${next}`;
  }, []);

  const setGuard = useCallback((message: string | null) => {
    guard.current = message;
  }, []);

  const value = useMemo(() => ({ page, navigate, setGuard }), [page, navigate, setGuard]);
  const t = useTranslations('shell');
  return (
    <NavigationContext.Provider value={value}>
      {children}
      <ConfirmDialog
        open={pending !== null}
        title={t('leaveTitle')}
        confirmLabel={t('leaveConfirm')}
        cancelLabel={t('leaveCancel')}
        tone="danger"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          guard.current = null;
          if (pending) window.location.hash = `#/${pending}`;
          setPending(null);
        }}
      >
        <p>{guard.current ?? t('unsaved')}</p>
      </ConfirmDialog>
    </NavigationContext.Provider>
  );
}

export function useNavigation(): NavigationValue {
  const value = useContext(NavigationContext);
  if (!value) throw new Error('NavigationProvider is missing above this component.');
  return value;
}

/** While `message` is set: in-app navigation asks first, and closing the tab warns. */
export function useLeaveGuard(message: string | null): void {
  const { setGuard } = useNavigation();
  useEffect(() => {
    setGuard(message);
    if (!message) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      setGuard(null);
    };
  }, [message, setGuard]);
}
