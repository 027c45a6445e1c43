import { useSession } from '../api/index.js';

/**
 * Who this console is to the agent (token name and role) and whether what it sends is encrypted:
 * HTTPS, the desktop window (nothing crosses the network), or plain HTTP. Plain HTTP on an address
 * other machines reach (--allow-insecure-http) is shown in red: "not encrypted".
 */
export function SessionBadge() {
  const { data: session } = useSession();
  if (!session) return null;
  const security: { state: string; text: string; detail?: string; title: string } =
    session.connection === 'https'
      ? { state: 'running', text: 'encrypted', detail: ' (HTTPS)', title: 'The connection to the agent is encrypted (HTTPS).' }
      : session.connection === 'local'
        ? { state: 'running', text: 'local window', title: 'The desktop window talks to the agent inside this PC; nothing crosses the network.' }
        : session.insecure
          ? { state: 'failed', text: 'not encrypted', title: 'Plain HTTP on an address other machines reach (--allow-insecure-http): the token and plant data cross the network readable. Start the agent with --tls.' }
          : { state: 'idle', text: 'not encrypted', detail: ' (this PC only)', title: 'Plain HTTP on the loopback address: only this PC reaches it.' };
  return (
    <span className="session" data-testid="session">
      <span className="badge" title={`Token "${session.name}" with the ${session.role} role`} data-testid="session-token">
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
