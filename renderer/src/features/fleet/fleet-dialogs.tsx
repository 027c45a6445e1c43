import { useTranslations } from 'use-intl';
import { useState, type FormEvent } from 'react';
import type { FleetAgent } from '../../../../shared/api/fleet.js';
import { errorText, useAddFleetAgent, usePinFleetAgent, useRemoveFleetAgent } from '../../api/index.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ModalDialog } from '../../components/modal-dialog.js';

/** Adds an agent; afterwards shows the certificate pinned, to compare with what that agent printed. */
export function AddAgentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const add = useAddFleetAgent();
  const [form, setForm] = useState({ name: '', url: 'https://', token: '', fingerprint: '' });
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const close = () => {
    add.reset();
    setForm({ name: '', url: 'https://', token: '', fingerprint: '' });
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ name: form.name.trim(), url: form.url.trim(), token: form.token.trim(), ...(form.fingerprint.trim() ? { fingerprint: form.fingerprint.trim() } : {}) });
  };
  const added = add.data;
  const t = useTranslations('fleet');
  return (
    <ModalDialog open={open} title={added ? t('added', { name: added.name }) : t('addTitle')} onClose={close}>
      {added ? (
        <>
          <p>{added.fingerprint ? t('pinned') : t('plainHttp')}</p>
          {added.fingerprint && <code className="fingerprint" data-testid="pinned-fingerprint">{added.fingerprint}</code>}
        </>
      ) : (
        <form className="form-grid" onSubmit={submit} aria-label={t('addTitle')}>
          <label className="field">
            {t('name')}
            <input value={form.name} onChange={set('name')} required maxLength={64} placeholder={t('namePlaceholder')} />
          </label>
          <label className="field">
            {t('address')}
            <input value={form.url} onChange={set('url')} required placeholder="https://hall-2.plant.local:4900" />
          </label>
          <label className="field">
            {t('token')}
            <input value={form.token} onChange={set('token')} required type="password" autoComplete="off" />
          </label>
          <label className="field">
            {t('fingerprint')}
            <input value={form.fingerprint} onChange={set('fingerprint')} placeholder={t('fingerprintPlaceholder')} />
          </label>
          <p className="muted small">{t('tokenNote')}</p>
          {add.isError && <p className="notice notice-error" role="alert">{errorText(add.error)}</p>}
          <button type="submit" className="button button-primary" disabled={add.isPending}>
            {add.isPending ? t('contacting') : t('add')}
          </button>
        </form>
      )}
    </ModalDialog>
  );
}

/** Re-pins the certificate an agent presents now, after the admin compared it. */
export function RepinDialog({ agent, onClose }: { agent: FleetAgent | null; onClose: () => void }) {
  const pin = usePinFleetAgent();
  const t = useTranslations('fleet');
  return (
    <ConfirmDialog
      open={agent !== null}
      title={t('repinTitle', { name: agent?.name ?? '' })}
      confirmLabel={t('repinConfirm')}
      tone="danger"
      busy={pin.isPending}
      onCancel={() => {
        pin.reset();
        onClose();
      }}
      onConfirm={() => pin.mutate({ name: agent!.name, fingerprint: agent!.presented_fingerprint! }, { onSuccess: onClose })}
    >
      <p>{t('repinText')}</p>
      <dl className="fingerprints">
        <dt>{t('pinnedLabel')}</dt>
        <dd><code>{agent?.fingerprint}</code></dd>
        <dt>{t('presented')}</dt>
        <dd><code data-testid="presented-fingerprint">{agent?.presented_fingerprint}</code></dd>
      </dl>
      {pin.isError && <p className="notice notice-error" role="alert">{errorText(pin.error)}</p>}
    </ConfirmDialog>
  );
}

export function RemoveDialog({ agent, onClose, onRemoved }: { agent: FleetAgent | null; onClose: () => void; onRemoved: (name: string) => void }) {
  const remove = useRemoveFleetAgent();
  const t = useTranslations('fleet');
  return (
    <ConfirmDialog
      open={agent !== null}
      title={t('removeTitle', { name: agent?.name ?? '' })}
      confirmLabel={t('remove')}
      tone="danger"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => remove.mutate(agent!.name, { onSuccess: () => onRemoved(agent!.name), onSettled: onClose })}
    >
      <p>
        {t('removeText')}{' '}
        {agent?.fingerprint && (
          <>
            {t('pinnedCertificate')} <code>{agent.fingerprint}</code>
          </>
        )}
      </p>
    </ConfirmDialog>
  );
}
