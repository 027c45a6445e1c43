import { useTranslations } from 'use-intl';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../../shared/api/roles.js';
import { type CreatedToken, TOKEN_NAME_MAX, tokenNameProblem } from '../../../../shared/api/tokens.js';
import { errorText, usePermission, useCreateToken, useRevokeToken, useTokens } from '../../api/index.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { LocalTime } from '../../components/local-time.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { agentText } from '../../i18n/agent-text.js';


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
  const t = useTranslations('tokens');
  const tPages = useTranslations('pages');
  const tCommon = useTranslations('common');

  if (!gate.allowed)
    return (
      <section className="page">
        <h1>{tPages('tokens')}</h1>
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
      <h1 id="tokens-title">{tPages('tokens')}</h1>
      <p className="muted">{t('intro')}</p>
      <form className="toolbar" onSubmit={submit} aria-label={t('create')}>
        <label className="field">
          {t('name')}
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            placeholder={t('namePlaceholder')}
            aria-describedby="token-name-rule"
            aria-invalid={problem !== undefined}
          />
        </label>
        <p id="token-name-rule" className={`muted small field-rule${problem ? ' field-rule-problem' : ''}`} data-testid="token-name-rule">
          {problem ? agentText(problem.code, problem.params, problem.text) : t('nameRule', { max: TOKEN_NAME_MAX })}
        </p>
        <label className="field">
          {t('role')}
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-primary" disabled={create.isPending || name.trim() === '' || problem !== undefined}>
          {t('createButton')}
        </button>
      </form>
      {create.isError && <p className="notice notice-error" role="alert">{errorText(create.error)}</p>}
      {revoke.isError && <p className="notice notice-error" role="alert">{errorText(revoke.error)}</p>}
      {tokens.isError && <p className="notice notice-error" role="alert">{errorText(tokens.error)}</p>}
      <table className="table" aria-label={tPages('tokens')}>
        <thead>
          <tr>
            <th>{t('name')}</th>
            <th>{t('role')}</th>
            <th>{t('created')}</th>
            <th>{t('lastUsed')}</th>
            <th>{t('revoke')}</th>
          </tr>
        </thead>
        <tbody>
          {(tokens.data ?? []).map((token) => (
            <tr key={token.name} data-token={token.name}>
              <td>{token.name}</td>
              <td>{token.role}</td>
              <td>{token.bootstrap ? t('bootstrap', { file: '<data-dir>/api-token' }) : <LocalTime value={token.created} />}</td>
              <td>{token.last_used ? <LocalTime value={token.last_used} /> : token.bootstrap ? '' : tCommon('never')}</td>
              <td>
                {!token.bootstrap && (
                  <button type="button" className="button small button-danger" onClick={() => setRevoking(token.name)}>
                    {t('revokeButton')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ModalDialog open={created !== null} title={t('createdTitle', { name: created?.name ?? '', role: created?.role ?? '' })} onClose={() => setCreated(null)}>
        <p>
          <strong>{t('copyNow')}</strong> {t('holder', { role: created?.role ?? '' })}
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
          {copied ? t('copied') : t('copy')}
        </button>
      </ModalDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t('revokeTitle', { name: revoking ?? '' })}
        confirmLabel={t('revoke')}
        tone="danger"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoke.mutate(revoking!, { onSettled: () => setRevoking(null) })}
      >
        {t('revokeText')}
      </ConfirmDialog>
    </section>
  );
}
