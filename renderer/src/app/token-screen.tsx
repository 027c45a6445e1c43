import { useState, type FormEvent } from 'react';
import { useTokenEntry, type AuthState } from '../api/index.js';

/** Shown when there is no token or the agent refused it: says where the right link comes from. */
export function TokenScreen({ reason }: { reason: Exclude<AuthState, 'ok'> }) {
  const adoptToken = useTokenEntry();
  const [token, setToken] = useState('');
  const [remember, setRemember] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) adoptToken(token, remember);
  };
  return (
    <div className="token-screen" data-app-state="unauthorized">
      <div className="token-card" role="main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Tributary</span>
        </div>
        <h1>{reason === 'missing' ? 'Access token needed' : 'Access token refused'}</h1>
        <p>
          {reason === 'missing'
            ? 'This console needs the access token of the agent it manages.'
            : 'The agent did not accept the access token. It may have been changed, or this tab belongs to another agent.'}
        </p>
        <p>
          Open the link the agent printed when it started; it looks like
          <code className="block">Tributary console: http://127.0.0.1:4900/?token=…</code>
          The token is also stored in the file <code>api-token</code> in the agent's data directory.
        </p>
        <form onSubmit={submit} className="token-form">
          <label htmlFor="token-input">Paste the token</label>
          <div className="row">
            <input id="token-input" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
            <button type="submit" className="button button-primary" disabled={!token.trim()}>
              Connect
            </button>
          </div>
          <label className="small">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember on this PC
          </label>
          <p className="muted small" data-testid="remember-trade-off">
            Without it, the token is forgotten when this tab closes. With it, the browser keeps it, and anyone who uses this
            browser profile on this PC can open the console with your token&apos;s role. Connect once without it to forget it again.
          </p>
        </form>
      </div>
    </div>
  );
}
