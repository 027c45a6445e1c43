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
  return (
    <ModalDialog open={open} title={added ? `Agent "${added.name}" added` : 'Add an agent'} onClose={close}>
      {added ? (
        <>
          <p>{added.fingerprint ? 'Its certificate is pinned: compare it with the fingerprint that agent printed at its start (its console line).' : 'It is reached over plain http: nothing is pinned.'}</p>
          {added.fingerprint && <code className="fingerprint" data-testid="pinned-fingerprint">{added.fingerprint}</code>}
        </>
      ) : (
        <form className="form-grid" onSubmit={submit} aria-label="Add an agent">
          <label className="field">
            Name
            <input value={form.name} onChange={set('name')} required maxLength={64} placeholder="e.g. hall-2" />
          </label>
          <label className="field">
            Address
            <input value={form.url} onChange={set('url')} required placeholder="https://hall-2.plant.local:4900" />
          </label>
          <label className="field">
            API token of that agent
            <input value={form.token} onChange={set('token')} required type="password" autoComplete="off" />
          </label>
          <label className="field">
            Certificate fingerprint (SHA-256, optional)
            <input value={form.fingerprint} onChange={set('fingerprint')} placeholder="empty: trust the certificate seen now" />
          </label>
          <p className="muted small">The token is kept sealed on this agent and never shown again. Without a fingerprint, the certificate the agent presents now is pinned; a different one later is refused until an admin re-pins it.</p>
          {add.isError && <p className="notice notice-error" role="alert">{errorText(add.error)}</p>}
          <button type="submit" className="button button-primary" disabled={add.isPending}>
            {add.isPending ? 'Contacting the agent…' : 'Add agent'}
          </button>
        </form>
      )}
    </ModalDialog>
  );
}

/** Re-pins the certificate an agent presents now, after the admin compared it. */
export function RepinDialog({ agent, onClose }: { agent: FleetAgent | null; onClose: () => void }) {
  const pin = usePinFleetAgent();
  return (
    <ConfirmDialog
      open={agent !== null}
      title={`Trust the new certificate of "${agent?.name ?? ''}"?`}
      confirmLabel="Pin the new certificate"
      tone="danger"
      busy={pin.isPending}
      onCancel={() => {
        pin.reset();
        onClose();
      }}
      onConfirm={() => pin.mutate({ name: agent!.name, fingerprint: agent!.presented_fingerprint! }, { onSuccess: onClose })}
    >
      <p>Nothing is sent to this agent while its certificate differs from the pinned one. Pin the new one only if that agent printed this fingerprint (its certificate was renewed), not if someone else may answer at its address.</p>
      <dl className="fingerprints">
        <dt>Pinned</dt>
        <dd><code>{agent?.fingerprint}</code></dd>
        <dt>Presented now</dt>
        <dd><code data-testid="presented-fingerprint">{agent?.presented_fingerprint}</code></dd>
      </dl>
      {pin.isError && <p className="notice notice-error" role="alert">{errorText(pin.error)}</p>}
    </ConfirmDialog>
  );
}

export function RemoveDialog({ agent, onClose, onRemoved }: { agent: FleetAgent | null; onClose: () => void; onRemoved: (name: string) => void }) {
  const remove = useRemoveFleetAgent();
  return (
    <ConfirmDialog
      open={agent !== null}
      title={`Remove "${agent?.name ?? ''}" from the fleet?`}
      confirmLabel="Remove"
      tone="danger"
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() => remove.mutate(agent!.name, { onSuccess: () => onRemoved(agent!.name), onSettled: onClose })}
    >
      <p>Its stored token is forgotten; the agent itself keeps running. {agent?.fingerprint && <>Its pinned certificate: <code>{agent.fingerprint}</code></>}</p>
    </ConfirmDialog>
  );
}
