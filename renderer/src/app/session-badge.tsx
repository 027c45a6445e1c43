import { useTranslations } from 'use-intl';
import { useSession } from '../api/index.js';

/**
 * Who this console is to the agent (token name and role) and whether what it sends is encrypted:
 * HTTPS, the desktop window (nothing crosses the network), or plain HTTP. Plain HTTP on an address
 * other machines reach (--allow-insecure-http) is shown in red: "not encrypted".
 */
export function SessionBadge() {
  const { data: session } = useSession();
  const t = useTranslations('header');
  if (!session) return null;
  const security: { state: string; text: string; detail?: string; title: string } =
    session.connection === 'https'
      ? { state: 'running', text: t('encrypted'), detail: ' (HTTPS)', title: t('encryptedTitle') }
      : session.connection === 'local'
        ? { state: 'running', text: t('localWindow'), title: t('localWindowTitle') }
        : session.insecure
          ? { state: 'failed', text: t('notEncrypted'), title: t('insecureTitle') }
          : { state: 'idle', text: t('notEncrypted'), detail: t('thisPcOnly'), title: t('loopbackTitle') };
  return (
    <span className="session" data-testid="session">
      <span className="badge" title={t('tokenTitle', { name: session.name, role: session.role })} data-testid="session-token">
        <span className="badge-label">{session.name}</span>
        <span className="badge-text">{session.role}</span>
      </span>
      <span className={`badge badge-${security.state}`} data-state={security.state} title={security.title} data-testid="session-security">
        <span className="badge-dot" aria-hidden="true" />
        <span className="badge-text">
          {security.text}
          {security.detail && <span className="badge-detail">{security.detail}</span>}
        </span>
      </span>
    </span>
  );
}
