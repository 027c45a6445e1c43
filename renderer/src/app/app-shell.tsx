import { lazy, Suspense, type MouseEvent } from 'react';
import { useStatus } from '../api/index.js';
import { ErrorNotice } from '../components/error-notice.js';
import { StateBadge } from '../components/state-badge.js';
import { KpiPage } from '../features/kpi-editor/index.js';
import { LogsPage } from '../features/logs/index.js';
import { StatusPage } from '../features/status/index.js';
import { StreamsPage } from '../features/streams/index.js';
import { PAGES, useNavigation, type PageId } from './navigation.js';

// Monaco is large: it loads only when the Configuration page is opened.
const ConfigPage = lazy(() => import('../features/config-editor/index.js').then((module) => ({ default: module.ConfigPage })));

export function AppShell() {
  const { page, navigate } = useNavigation();
  const status = useStatus();
  const appState = status.data ? 'ready' : status.isError ? 'error' : 'loading';

  const follow = (id: PageId) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(id);
  };

  return (
    <div className="app" data-app-state={appState}>
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Tributary</span>
          <span className="brand-sub">edge agent console</span>
        </div>
        <nav className="app-nav" aria-label="Main">
          {PAGES.map(({ id, label }) => (
            <a key={id} href={`#/${id}`} className="nav-link" aria-current={page === id ? 'page' : undefined} onClick={follow(id)}>
              {label}
            </a>
          ))}
        </nav>
        <div className="header-state" aria-label="Agent state in header">
          {status.data ? <StateBadge state={status.data.agent.status} label="Agent" /> : <span className="muted">connecting…</span>}
        </div>
      </header>
      <main className="app-main">
        {status.isError && !status.data && <ErrorNotice title="The agent does not answer" error={status.error} />}
        <Suspense fallback={<p className="muted">Loading the editor…</p>}>
          <CurrentPage page={page} />
        </Suspense>
      </main>
    </div>
  );
}

function CurrentPage({ page }: { page: PageId }) {
  switch (page) {
    case 'status':
      return <StatusPage />;
    case 'configuration':
      return <ConfigPage />;
    case 'streams':
      return <StreamsPage />;
    case 'logs':
      return <LogsPage />;
    case 'kpis':
      return <KpiPage />;
  }
}
