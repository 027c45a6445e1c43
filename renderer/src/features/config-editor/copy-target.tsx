import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import type { ConfigValidation } from '../../../../shared/api/resources.js';
import { type CopyPlan, type PickedBlocks, copyBlocks, secretKey } from '../../../../shared/config/copy-blocks.js';
import type { Violation } from '../../../../shared/config/violations.js';
import { errorText, queryKeys, useApi, usePermission } from '../../api/index.js';
import { useToast } from '../../app/toasts.js';
import { GatedButton } from '../../components/gated-button.js';
import { plural } from '../../format/quantities.js';
import { ConfigDiff } from './config-diff.js';
import { type CopyTarget, checkKey, describePlan, prepareDocument, secretLabel } from './copy-targets.js';
import { DeployChanges } from './deploy-changes.js';
import { formatDocument } from './document-text.js';
import { pathText } from './violation-list.js';

interface CopyTargetProps {
  target: CopyTarget;
  /** The source's saved configuration (secrets masked). */
  source: Record<string, unknown>;
  picked: PickedBlocks;
  theme: string;
}

type Outcome = { tone: 'ok' | 'error'; text: string; conflict?: boolean };
/** The target's answer (or why it was not asked), for exactly the text and secrets of `key`. */
type Check = { key: string; result: ConfigValidation } | { key: string; problem: string };

const errorsIn = (list: readonly Violation[]) => list.filter((v) => v.level === 'error').length;

/**
 * One target of "copy this source to…": its saved configuration read through the proxy, the merge
 * as a diff whose right side can be fixed, the secrets it needs typed, its own validation, its save.
 */
export function CopyTargetSection({ target, source, picked, theme }: CopyTargetProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const saveGate = usePermission('saveConfig');
  const loaded = useQuery({
    queryKey: [...queryKeys.all, 'copy-target', target.name],
    queryFn: () => api.config(target.at),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const plan = useMemo(
    () => (loaded.data ? copyBlocks(source, loaded.data.document, picked) : undefined),
    [loaded.data, source, picked],
  );
  const merged = useMemo(() => (plan ? formatDocument(plan.config) : ''), [plan]);
  const [edited, setEdited] = useState<{ from: string; text: string } | null>(null);
  const text = edited && edited.from === merged ? edited.text : merged;
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [check, setCheck] = useState<Check | null>(null);
  const [busy, setBusy] = useState<'checking' | 'saving' | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (loaded.isError) {
    return (
      <Frame target={target}>
        <p className="notice notice-error" role="alert">
          The configuration of {target.label} cannot be read: {errorText(loaded.error)}
        </p>
      </Frame>
    );
  }
  if (!loaded.data || !plan) {
    return (
      <Frame target={target}>
        <p className="muted">Reading the configuration of {target.label}…</p>
      </Frame>
    );
  }
  const revision = loaded.data.revision;

  const key = checkKey(text, typed);
  const current = check?.key === key ? check : null;
  const violations = current && 'result' in current ? current.result.violations : [];
  const errors = errorsIn(violations);
  const prepared = prepareDocument(text, plan.secrets, typed);
  const missing = 'missing' in prepared ? prepared.missing.length : 0;
  const canSave = current !== null && 'result' in current && errors === 0 && missing === 0 && outcome?.tone !== 'ok';

  const readAgain = () => {
    setOutcome(null);
    setCheck(null);
    void loaded.refetch();
  };

  const runCheck = async () => {
    setOutcome(null);
    if ('problem' in prepared) return setCheck({ key, problem: prepared.problem });
    setBusy('checking');
    try {
      setCheck({ key, result: await api.validate(prepared.document, target.at) });
    } catch (cause) {
      setCheck({ key, problem: `${target.label} did not check it: ${errorText(cause)}` });
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    if (!('document' in prepared)) return;
    setBusy('saving');
    try {
      const saved = await api.saveConfig(prepared.document, revision, target.at);
      if (saved.kind === 'saved') {
        const as = saved.revision === null ? '' : ` as revision ${saved.revision}`;
        setOutcome({ tone: 'ok', text: `Saved to ${target.label}${as}.` });
        toast('ok', `Configuration saved to ${target.label}.`);
        void queryClient.invalidateQueries({ queryKey: queryKeys.fleet(), exact: true });
      } else if (saved.kind === 'invalid') {
        setCheck({ key, result: { status: 'failed', violations: saved.violations } });
        const found = plural(errorsIn(saved.violations), 'error');
        setOutcome({ tone: 'error', text: `Not saved: ${target.label} found ${found}.` });
      } else {
        const text = `Not saved: the configuration of ${target.label} was changed after it was read. ${saved.message}`;
        setOutcome({ tone: 'error', text, conflict: true });
      }
    } catch (cause) {
      setOutcome({ tone: 'error', text: `Not saved to ${target.label}: ${errorText(cause)}` });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Frame target={target}>
      <p className="change-summary" data-testid="copy-summary">{describePlan(plan)}</p>
      <p className="muted small">
        Left: the configuration saved on {target.label}
        {revision === null ? '' : ` (revision ${revision})`}. Right: what will be saved there; fix it right there
        if {target.label} needs something different.
      </p>
      <ConfigDiff
        original={formatDocument(loaded.data.document)}
        modified={merged}
        theme={theme}
        testId={`copy-diff-${target.name}`}
        onModifiedChange={(next) => setEdited({ from: merged, text: next })}
      />
      <SecretInputs label={target.label} plan={plan} typed={typed} onType={setTyped} />
      <div className="button-row">
        <button type="button" className="button" onClick={() => void runCheck()} disabled={busy !== null}>
          {busy === 'checking' ? `Checking on ${target.label}…` : `Check on ${target.label}`}
        </button>
        <GatedButton
          gate={saveGate}
          className="button button-primary"
          onClick={() => void save()}
          disabled={!canSave || busy !== null}
          title={canSave ? undefined : `Once ${target.label} checked it without errors, every secret typed`}
        >
          {busy === 'saving' ? `Saving to ${target.label}…` : `Save to ${target.label}`}
        </GatedButton>
      </div>
      {current && 'problem' in current && (
        <p className="notice notice-compact notice-error" role="alert">
          {current.problem}
        </p>
      )}
      {current && 'result' in current && (
        <CheckResult
          label={target.label}
          violations={violations}
          missing={missing}
          changes={errors === 0 ? current.result.changes : undefined}
        />
      )}
      {outcome && (
        <div
          className={`notice notice-compact notice-${outcome.tone}`}
          role={outcome.tone === 'error' ? 'alert' : 'status'}
        >
          {outcome.text}{' '}
          {outcome.conflict && (
            <button type="button" className="button small" onClick={readAgain}>
              Read {target.label} again
            </button>
          )}
        </div>
      )}
    </Frame>
  );
}

function Frame({ target, children }: { target: CopyTarget; children: ReactNode }) {
  return (
    <section className="copy-target" aria-label={`Copy to ${target.label}`} data-agent={target.name}>
      <h3>To {target.label}</h3>
      {children}
    </section>
  );
}

interface SecretInputsProps {
  label: string;
  plan: CopyPlan;
  typed: Readonly<Record<string, string>>;
  onType: (typed: Record<string, string>) => void;
}

/** One password field per secret the target cannot keep (copy-blocks.ts says which, and why). */
function SecretInputs({ label, plan, typed, onType }: SecretInputsProps) {
  if (plan.secrets.length === 0) return null;
  return (
    <fieldset className="copy-secrets">
      <legend>Secrets {label} needs typed (they are never copied)</legend>
      {plan.secrets.map((secret) => {
        const id = secretKey(secret.json_path);
        return (
          <label key={id} className="field">
            {secretLabel(secret, plan.config)}
            <input
              type="password"
              autoComplete="off"
              value={typed[id] ?? ''}
              onChange={(event) => onType({ ...typed, [id]: event.target.value })}
            />
            <span className="muted small">{secret.reason}</span>
          </label>
        );
      })}
    </fieldset>
  );
}

interface CheckResultProps {
  label: string;
  violations: readonly Violation[];
  missing: number;
  changes: ConfigValidation['changes'];
}

/** In words: whether the target refuses or accepts it, with how many errors and warnings. */
function verdict(label: string, violations: readonly Violation[], missing: number): string {
  const errors = errorsIn(violations);
  const warnings = violations.length - errors;
  const andWarnings = warnings > 0 ? `, ${plural(warnings, 'warning')}` : '';
  if (errors > 0) return `${label} refuses it: ${plural(errors, 'error')}${andWarnings}.`;
  const typeThem = missing > 0 ? ` Type the ${plural(missing, 'secret')} still empty to save.` : '';
  return `${label} accepts it${warnings > 0 ? ` with ${plural(warnings, 'warning')}` : ''}.${typeThem}`;
}

/** What the target's own validation said: its violations at their places, or what saving there does. */
function CheckResult({ label, violations, missing, changes }: CheckResultProps) {
  const errors = errorsIn(violations);
  return (
    <div className="copy-check">
      {/* A warning (a stream no transmit there sends, say) is not an "ok": it is said in the warning's colour. */}
      <p className={`notice notice-compact notice-${errors > 0 ? 'error' : violations.length > 0 ? 'warning' : 'ok'}`} role="status">
        {verdict(label, violations, missing)}
      </p>
      {violations.length > 0 && (
        <ul className="violation-list" aria-label={`Problems found by ${label}`}>
          {violations.map((violation) => (
            <li
              key={`${violation.level}:${pathText(violation.json_path)}:${violation.description}`}
              className={`violation violation-${violation.level}`}
              data-level={violation.level}
            >
              <span className="violation-level">{violation.level}</span>{' '}
              <span className="violation-text">{violation.description}</span>{' '}
              <span className="violation-path mono">{pathText(violation.json_path)}</span>
            </li>
          ))}
        </ul>
      )}
      {errors === 0 && <DeployChanges changes={changes} />}
    </div>
  );
}
