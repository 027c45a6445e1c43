import { text as catalogText } from '../../i18n/language.js';
import { agentText, agentTextOf } from '../../i18n/agent-text.js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import type { ConfigValidation } from '../../../../shared/api/resources.js';
import { type CopyPlan, type PickedBlocks, copyBlocks, secretKey } from '../../../../shared/config/copy-blocks.js';
import type { Violation } from '../../../../shared/config/violations.js';
import { errorText, queryKeys, useApi, usePermission } from '../../api/index.js';
import { useToast } from '../../app/toasts.js';
import { GatedButton } from '../../components/gated-button.js';
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
          {catalogText('copy.unreadable', { agent: target.label, error: errorText(loaded.error) })}
        </p>
      </Frame>
    );
  }
  if (!loaded.data || !plan) {
    return (
      <Frame target={target}>
        <p className="muted">{catalogText('copy.reading', { agent: target.label })}</p>
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
      setCheck({ key, problem: catalogText('copy.didNotCheck', { agent: target.label, error: errorText(cause) }) });
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
        setOutcome({ tone: 'ok', text: catalogText('copy.saved', { agent: target.label, revision: saved.revision === null ? 'none' : String(saved.revision) }) });
        toast('ok', catalogText('copy.savedToast', { agent: target.label }));
        void queryClient.invalidateQueries({ queryKey: queryKeys.fleet(), exact: true });
      } else if (saved.kind === 'invalid') {
        setCheck({ key, result: { status: 'failed', violations: saved.violations } });
        setOutcome({ tone: 'error', text: catalogText('copy.foundErrors', { agent: target.label, count: errorsIn(saved.violations) }) });
      } else {
        setOutcome({ tone: 'error', text: catalogText('copy.conflict', { agent: target.label, message: saved.message }), conflict: true });
      }
    } catch (cause) {
      setOutcome({ tone: 'error', text: catalogText('copy.notSaved', { agent: target.label, error: errorText(cause) }) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Frame target={target}>
      <p className="change-summary" data-testid="copy-summary">{describePlan(plan)}</p>
      <p className="muted small">
        {catalogText('copy.diff', { agent: target.label, revision: revision === null ? 'none' : String(revision) })}
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
          {busy === 'checking' ? catalogText('copy.checking', { agent: target.label }) : catalogText('copy.check', { agent: target.label })}
        </button>
        <GatedButton
          gate={saveGate}
          className="button button-primary"
          onClick={() => void save()}
          disabled={!canSave || busy !== null}
          title={canSave ? undefined : catalogText('copy.saveTitle', { agent: target.label })}
        >
          {busy === 'saving' ? catalogText('copy.saving', { agent: target.label }) : catalogText('copy.save', { agent: target.label })}
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
              {catalogText('copy.readAgain', { agent: target.label })}
            </button>
          )}
        </div>
      )}
    </Frame>
  );
}

function Frame({ target, children }: { target: CopyTarget; children: ReactNode }) {
  return (
    <section className="copy-target" aria-label={catalogText('copy.section', { agent: target.label })} data-agent={target.name}>
      <h3>{catalogText('copy.to', { agent: target.label })}</h3>
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
      <legend>{catalogText('copy.secrets', { agent: label })}</legend>
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
            <span className="muted small">{agentText(secret.code, secret.params, secret.reason)}</span>
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
  if (errors > 0) return catalogText('copy.refuses', { agent: label, errors, warnings });
  return catalogText('copy.accepts', { agent: label, warnings, missing });
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
        <ul className="violation-list" aria-label={catalogText('copy.problemsBy', { agent: label })}>
          {violations.map((violation) => (
            <li
              key={`${violation.level}:${pathText(violation.json_path)}:${violation.description}`}
              className={`violation violation-${violation.level}`}
              data-level={violation.level}
            >
              <span className="violation-level">{catalogText(`config.levels.${violation.level}`)}</span>{' '}
              <span className="violation-text">{agentTextOf(violation, violation.description)}</span>{' '}
              <span className="violation-path mono">{pathText(violation.json_path)}</span>
            </li>
          ))}
        </ul>
      )}
      {errors === 0 && <DeployChanges changes={changes} />}
    </div>
  );
}
