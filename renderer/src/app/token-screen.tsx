import { text } from '../i18n/language.js';
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
        <h1>{reason === 'missing' ? text('token.needed') : text('token.refused')}</h1>
        <p>{reason === 'missing' ? text('token.neededText') : text('token.refusedText')}</p>
        <p>
          {text('token.openLink')}
          <code className="block">{text('token.consoleLine', { url: 'http://127.0.0.1:4900/?token=…' })}</code>
          {text.rich('token.storedIn', { code: () => <code>api-token</code> })}
        </p>
        <form onSubmit={submit} className="token-form">
          <label htmlFor="token-input">{text('token.paste')}</label>
          <div className="row">
            <input id="token-input" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
            <button type="submit" className="button button-primary" disabled={!token.trim()}>
              {text('token.connect')}
            </button>
          </div>
          <label className="small">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> {text('token.remember')}
          </label>
          <p className="muted small" data-testid="remember-trade-off">
            {text('token.tradeOff')}
          </p>
        </form>
      </div>
    </div>
  );
}
