import { lazy, Suspense, useRef, useState, type MouseEvent } from 'react';
import { STATUS_REFRESH_SECONDS, usePermission } from '../api/index.js';
import { SessionBadge } from './session-badge.js';
import { Ago } from '../components/ago.js';
import { LocalTime } from '../components/local-time.js';
import { StateBadge } from '../components/state-badge.js';
import { agentTextOf } from '../i18n/agent-text.js';
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
import { useTranslations } from 'use-intl';
import { LanguageChoice } from '../i18n/language-choice.js';
import { useLanguage } from '../i18n/language-provider.js';
import { stateWord } from '../components/state-badge.js';

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
  const t = useTranslations();
  const { language } = useLanguage();
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
        {t('header.skip')}
      </a>
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Tributary</span>
          <span className="brand-sub">{t('header.tagline')}</span>
        </div>
        <nav className="app-nav" aria-label={t('header.mainNavigation')}>
          {PAGES.filter(({ id }) => id !== 'tokens' || admin).map(({ id }) => (
            <a key={id} href={`#/${id}`} className="nav-link" aria-current={page === id ? 'page' : undefined} onClick={follow(id)}>
              {t(`pages.${id}`)}
            </a>
          ))}
        </nav>
        <ManagedAgentBadge />
        <div className="header-state" aria-label={t('header.agentState')}>
          <HeaderState connection={connection} />
        </div>
        <a href="#/api" className="header-link" aria-label={t('pages.api')} title={t('pages.api')} aria-current={page === 'api' ? 'page' : undefined} onClick={follow('api')}>
          <span className="wide-only">{t('pages.api')}</span>
          <span className="narrow-only">{t('header.api')}</span>
        </a>
        {page === 'help' ? (
          <a href={helpHref(page, language.code)} className="header-link" aria-current="page">
            {t('pages.help')}
          </a>
        ) : (
          <button type="button" className="header-link header-button" aria-expanded={helpOpen} onClick={() => setHelpOpen((open) => !open)} title={t('header.helpTitle')}>
            {t('pages.help')}
          </button>
        )}
        <LanguageChoice />
        <ThemeToggle />
        <SessionBadge />
      </header>
      <main id="main-content" ref={main} tabIndex={-1} className={connection.kind === 'unreachable' ? 'app-main stale' : 'app-main'}>
        {connection.kind === 'unreachable' && <ConnectionBanner connection={connection} />}
        <Suspense fallback={<p className="muted">{t('shell.loadingEditor')}</p>}>
          <CurrentPage page={page} />
        </Suspense>
      </main>
      {helpOpen && page !== 'help' && (
        <Suspense fallback={null}>
          <HelpPanel href={helpHref(page, language.code)} onClose={() => setHelpOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

function HeaderState({ connection }: { connection: ConnectionState }) {
  const t = useTranslations('header');
  if (connection.kind === 'connecting') return <span className="header-muted">{t('connecting')}</span>;
  if (connection.kind === 'unreachable') return <StateBadge state="unreachable" label={t('agent')} title={connection.reason} />;
  const { agent } = connection.status;
  const degraded = Object.entries(agent.services).filter(([, s]) => s.health === 'degraded');
  const storage = agent.problems ?? [];
  if (storage.length > 0)
    return (
      <a href="#/status" className="badge-link">
        <StateBadge state="degraded" label={t('agent')} text={`${stateWord(agent.status)} · ${storage.some((p) => p.category === 'disk_full') ? t('diskFull') : t('cannotWrite')}`} title={storage.map((p) => p.message).join('\n')} />
      </a>
    );
  if (agent.status === 'running' && degraded.length > 0)
    return (
      <a href="#/status" className="badge-link">
        <StateBadge
          state="degraded"
          label={t('agent')}
          text={t('degradedServices', { status: stateWord('running'), count: degraded.length })}
          title={degraded.map(([id, s]) => `${id}: ${agentTextOf(s, s.reason ?? '', 'reason_')}`).join('\n')}
        />
      </a>
    );
  return <StateBadge state={agent.status} label={t('agent')} />;
}

/** Said on every page at once when the agent stops answering; goes by itself when it answers again. */
function ConnectionBanner({ connection }: { connection: Extract<ConnectionState, { kind: 'unreachable' }> }) {
  const t = useTranslations('shell');
  return (
    <div className="notice notice-error connection-banner" role="alert" data-testid="connection-banner">
      <strong>{t('noAnswer')}</strong> {connection.reason}{' '}
      {connection.updatedAt !== undefined ? (
        <span>{t.rich('lastUpdated', { time: () => <LocalTime value={connection.updatedAt!} />, ago: () => <Ago at={connection.updatedAt!} /> })}</span>
      ) : (
        <span>{t('nothingLoaded')}</span>
      )}{' '}
      <span className="muted">{t('retrying', { seconds: STATUS_REFRESH_SECONDS })}</span>
    </div>
  );
}

function CurrentPage({ page }: { page: PageId }) {
  const t = useTranslations('shell');
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
        <Suspense fallback={<p className="muted">{t('loadingApi')}</p>}>
          <ApiReferencePage />
        </Suspense>
      );
    case 'help':
      return (
        <Suspense fallback={<p className="muted">{t('loadingHelp')}</p>}>
          <HelpPage />
        </Suspense>
      );
    case 'tokens':
      return <TokensPage />;
    case 'agents':
      return <AgentsPage />;
  }
}
