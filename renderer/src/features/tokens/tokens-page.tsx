import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../../shared/api/roles.js';
import { type CreatedToken, TOKEN_NAME_RULE, tokenNameProblem } from '../../../../shared/api/tokens.js';
import { errorText, usePermission, useCreateToken, useRevokeToken, useTokens } from '../../api/index.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { ModalDialog } from '../../components/modal-dialog.js';

const ROLE_WORDS: Record<Role, string> = {
  viewer: 'viewer: reads everything (secrets masked), validates',
  operator: 'operator: also starts, stops, restreams, previews the saved configuration',
  admin: 'admin: everything (saves configuration, manages tokens)',
};

/** Admins create named tokens with a role (shown once) and revoke them. */
export function TokensPage() {
  const gate = usePermission('listTokens');
  const tokens = useTokens(gate.allowed);
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);

  if (!gate.allowed)
    return (
      <section className="page">
        <h1>Tokens</h1>
        <p className="notice">{gate.title}</p>
      </section>
    );

  // The rule is checked as it is typed, in the words the agent uses (shared/api/tokens.ts).
  const problem = name.trim() === '' ? undefined : tokenNameProblem(name.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), role },
      {
        onSuccess: (token) => {
          setCreated(token);
          setCopied(false);
          setName('');
        },
      },
    );
  };

  return (
    <section className="page" aria-labelledby="tokens-title">
      <h1 id="tokens-title">Tokens</h1>
      <p className="muted">
        Each person or system gets its own token with the least role it needs. The agent keeps only a salted hash: a token is shown once, when it is created.
      </p>
      <form className="toolbar" onSubmit={submit} aria-label="Create a token">
        <label className="field">
          Name
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            placeholder="e.g. Kollege Müller"
            aria-describedby="token-name-rule"
            aria-invalid={problem !== undefined}
          />
        </label>
        <p id="token-name-rule" className={`muted small field-rule${problem ? ' field-rule-problem' : ''}`} data-testid="token-name-rule">
          {problem ?? TOKEN_NAME_RULE}
        </p>
        <label className="field">
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_WORDS[r]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-primary" disabled={create.isPending || name.trim() === '' || problem !== undefined}>
          Create token
        </button>
      </form>
      {create.isError && <p className="notice notice-error" role="alert">{errorText(create.error)}</p>}
      {revoke.isError && <p className="notice notice-error" role="alert">{errorText(revoke.error)}</p>}
      {tokens.isError && <p className="notice notice-error" role="alert">{errorText(tokens.error)}</p>}
      <table className="table" aria-label="Tokens">
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Revoke</th>
          </tr>
        </thead>
        <tbody>
          {(tokens.data ?? []).map((token) => (
            <tr key={token.name} data-token={token.name}>
              <td>{token.name}</td>
              <td>{token.role}</td>
              <td>{token.bootstrap ? 'TRIBUTARY_API_TOKEN or <data-dir>/api-token' : <LocalTime value={token.created} />}</td>
              <td>{token.last_used ? <LocalTime value={token.last_used} /> : token.bootstrap ? '' : 'never'}</td>
              <td>
                {!token.bootstrap && (
                  <button type="button" className="button small button-danger" onClick={() => setRevoking(token.name)}>
                    Revoke…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ModalDialog open={created !== null} title={`Token "${created?.name ?? ''}" (${created?.role ?? ''})`} onClose={() => setCreated(null)}>
        <p>
          <strong>Copy it now: it is shown this once.</strong> Whoever holds it can act as {created?.role}. If it is lost, revoke it and create another.
        </p>
        <p>
          <code className="token-once" data-testid="created-token">
            {created?.token}
          </code>
        </p>
        <button
          type="button"
          className="button"
          onClick={() => {
            if (created) void navigator.clipboard?.writeText(created.token).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </ModalDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke "${revoking ?? ''}"?`}
        confirmLabel="Revoke"
        tone="danger"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoke.mutate(revoking!, { onSettled: () => setRevoking(null) })}
      >
        Requests with this token are refused from now on.
      </ConfirmDialog>
    </section>
  );
}
