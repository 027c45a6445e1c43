import { lazy, Suspense, useRef, useState, type MouseEvent } from 'react';
import { STATUS_REFRESH_SECONDS, usePermission } from '../api/index.js';
import { SessionBadge } from './session-badge.js';
import { Ago } from '../components/ago.js';
import { LocalTime } from '../components/local-time.js';
import { StateBadge } from '../components/state-badge.js';
import { plural } from '../format/quantities.js';
import { KpiPage } from '../features/kpi-editor/index.js';
import { LogsPage } from '../features/logs/index.js';
import { StatusPage } from '../features/status/index.js';
import { StreamsPage } from '../features/streams/index.js';
import { TokensPage } from '../features/tokens/index.js';
import { AgentsPage } from '../features/fleet/index.js';
import { ManagedAgentBadge } from './managed-agent-badge.js';
import { type ConnectionState, useConnection } from './connection.js';
import { PAGES, useNavigation, type PageId } from './navigation.js';
import { helpHref } from '../features/help/help-links.js';
import { ThemeToggle } from './theme-toggle.js';

// Monaco is large: it loads only when the Configuration page is opened.
const ConfigPage = lazy(() => import('../features/config-editor/index.js').then((module) => ({ default: module.ConfigPage })));
// Read by integrators now and then: its renderer loads when the page is opened.
const ApiReferencePage = lazy(() => import('../features/api-reference/index.js').then((module) => ({ default: module.ApiReferencePage })));
// The bundled documentation: loaded when help is asked for.
const HelpPage = lazy(() => import('../features/help/index.js').then((module) => ({ default: module.HelpPage })));
const HelpPanel = lazy(() => import('../features/help/index.js').then((module) => ({ default: module.HelpPanel })));

export function AppShell() {
  const { page, navigate } = useNavigation();
  const connection = useConnection();
  const main = useRef<HTMLElement>(null);
  const admin = usePermission('listTokens').allowed;
  // Help opens beside the page, which stays with its unsaved work (docs/decisions/0070).
  const [helpOpen, setHelpOpen] = useState(false);
  const appState = connection.kind === 'connected' ? 'ready' : connection.kind === 'unreachable' ? (connection.status ? 'stale' : 'error') : 'loading';

  const follow = (id: PageId) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(id);
  };

  return (
    <div className="app" data-app-state={appState}>
      {/* The address holds the page (#/logs): the skip link moves focus instead of following its href. */}
      <a
        className="skip-link"
        href="#main-content"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Tributary</span>
          <span className="brand-sub">edge agent console</span>
        </div>
        <nav className="app-nav" aria-label="Main">
          {PAGES.filter(({ id }) => id !== 'tokens' || admin).map(({ id, label }) => (
            <a key={id} href={`#/${id}`} className="nav-link" aria-current={page === id ? 'page' : undefined} onClick={follow(id)}>
              {label}
            </a>
          ))}
        </nav>
        <ManagedAgentBadge />
        <div className="header-state" aria-label="Agent state in header">
          <HeaderState connection={connection} />
        </div>
        <a href="#/api" className="header-link" aria-label="API reference" title="API reference" aria-current={page === 'api' ? 'page' : undefined} onClick={follow('api')}>
          <span className="wide-only">API reference</span>
          <span className="narrow-only">API</span>
        </a>
        {page === 'help' ? (
          <a href={helpHref(page)} className="header-link" aria-current="page">
            Help
          </a>
        ) : (
          <button type="button" className="header-link header-button" aria-expanded={helpOpen} onClick={() => setHelpOpen((open) => !open)} title="The documentation of what this page shows, beside it (your work on the page stays)">
            Help
          </button>
        )}
        <ThemeToggle />
        <SessionBadge />
      </header>
      <main id="main-content" ref={main} tabIndex={-1} className={connection.kind === 'unreachable' ? 'app-main stale' : 'app-main'}>
        {connection.kind === 'unreachable' && <ConnectionBanner connection={connection} />}
        <Suspense fallback={<p className="muted">Loading the editor…</p>}>
          <CurrentPage page={page} />
        </Suspense>
      </main>
      {helpOpen && page !== 'help' && (
        <Suspense fallback={null}>
          <HelpPanel href={helpHref(page)} onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

function HeaderState({ connection }: { connection: ConnectionState }) {
  if (connection.kind === 'connecting') return <span className="header-muted">connecting…</span>;
  if (connection.kind === 'unreachable') return <StateBadge state="unreachable" label="Agent" title={connection.reason} />;
  const { agent } = connection.status;
  const degraded = Object.entries(agent.services).filter(([, s]) => s.health === 'degraded');
  const storage = agent.problems ?? [];
  if (storage.length > 0)
    return (
      <a href="#/status" className="badge-link">
        <StateBadge state="degraded" label="Agent" text={`${agent.status} · ${storage.some((p) => p.category === 'disk_full') ? 'disk full' : 'cannot write'}`} title={storage.map((p) => p.message).join('\n')} />
      </a>
    );
  if (agent.status === 'running' && degraded.length > 0)
    return (
      <a href="#/status" className="badge-link">
        <StateBadge
          state="degraded"
          label="Agent"
          text={`running · ${plural(degraded.length, 'service')} degraded`}
          title={degraded.map(([id, s]) => `${id}: ${s.reason ?? ''}`).join('\n')}
        />
      </a>
    );
  return <StateBadge state={agent.status} label="Agent" />;
}

/** Said on every page at once when the agent stops answering; goes by itself when it answers again. */
function ConnectionBanner({ connection }: { connection: Extract<ConnectionState, { kind: 'unreachable' }> }) {
  return (
    <div className="notice notice-error connection-banner" role="alert" data-testid="connection-banner">
      <strong>The agent does not answer.</strong> {connection.reason}{' '}
      {connection.updatedAt !== undefined ? (
        <span>
          What you see was last updated <LocalTime value={connection.updatedAt} /> (<Ago at={connection.updatedAt} />) and may be out of date.
        </span>
      ) : (
        <span>Nothing could be loaded yet.</span>
      )}{' '}
      <span className="muted">Trying again every {STATUS_REFRESH_SECONDS} s.</span>
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
    case 'api':
      return (
        <Suspense fallback={<p className="muted">Loading the API reference…</p>}>
          <ApiReferencePage />
        </Suspense>
      );
    case 'help':
      return (
        <Suspense fallback={<p className="muted">Loading the documentation…</p>}>
          <HelpPage />
        </Suspense>
      );
    case 'tokens':
      return <TokensPage />;
    case 'agents':
      return <AgentsPage />;
  }
}
