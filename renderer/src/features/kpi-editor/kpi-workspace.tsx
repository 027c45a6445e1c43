import { useTranslations } from 'use-intl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { kindOf, type KpiKind } from '../../../../shared/kpi/schema.js';
import { KPI_TEMPLATES, kpiTemplate } from '../../../../shared/kpi/templates.js';
import { errorText, useDeleteKpi, useKpis, useKpiValidation, usePermission, useSaveKpi } from '../../api/index.js';
import { GatedButton } from '../../components/gated-button.js';
import { ReadOnlyNotice } from '../../components/read-only-notice.js';
import { useLeaveGuard } from '../../app/navigation.js';
import { useToast } from '../../app/toasts.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { draftName, formatKpi, readKpiText } from './kpi-draft.js';
import { KpiEditorPanel } from './kpi-editor-panel.js';
import { KpiLibraryList } from './kpi-library-list.js';
import { KpiPreview } from './kpi-preview.js';
import './kpi-page.css';

interface Draft {
  /** A new key opens a new editor model. */
  key: number;
  /** Library name of the KPI being edited; null for a new one. */
  original: string | null;
  /** The text as opened or last saved: the baseline for "unsaved changes". */
  baseline: string;
}

interface Notice {
  tone: 'ok' | 'error' | 'warning';
  text: string;
}

const VALIDATION_DELAY_MS = 350;

function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export function KpiWorkspace() {
  const library = useKpis();
  const save = useSaveKpi();
  const remove = useDeleteKpi();
  const administer = usePermission('saveKpi');
  const keys = useRef(1);
  const [draft, setDraft] = useState<Draft>(() => ({ key: 1, original: null, baseline: formatKpi(kpiTemplate('machine_type').definition) }));
  const [text, setText] = useState(draft.baseline);
  const t = useTranslations('kpi');
  const tPages = useTranslations('pages');
  const tCommon = useTranslations('common');
  const tNotices = useTranslations('notices');
  const [pendingOpen, setPendingOpen] = useState<Omit<Draft, 'key'> | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // A notice is about the text it was said of: once the text is another, it no longer applies (issue 56).
  const [noticeState, setNoticeState] = useState<{ notice: Notice; about: string } | null>(null);
  const notice = noticeState && noticeState.about === text ? noticeState.notice : null;
  const setNotice = (next: Notice | null, about: string = text) => setNoticeState(next ? { notice: next, about } : null);
  const toast = useToast();

  const dirty = text !== draft.baseline;
  useLeaveGuard(dirty ? tNotices('leaveKpi') : null);

  const checkedText = useSettled(text, VALIDATION_DELAY_MS);
  const checked = useMemo(() => readKpiText(checkedText), [checkedText]);
  const validation = useKpiValidation(checkedText, checked.document, draft.original, checked.syntax.length === 0);
  const pending = checkedText !== text || (checked.syntax.length === 0 && (validation.isFetching || !validation.data));
  const violations = validation.data?.violations ?? [];
  const valid = !pending && checked.syntax.length === 0 && validation.data?.status === 'passed';
  const kind: KpiKind = kindOf(checked.document);

  const load = (next: Omit<Draft, 'key'>) => {
    keys.current += 1;
    setDraft({ ...next, key: keys.current });
    setText(next.baseline);
    setNotice(null);
  };
  const open = (next: Omit<Draft, 'key'>) => (dirty ? setPendingOpen(next) : load(next));

  const saveDraft = () => {
    const current = readKpiText(text);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: t('notJson') });
    const name = draft.original ?? draftName(current.document);
    if (!name) return setNotice({ tone: 'error', text: t('noName') });
    save.mutate(
      { name, document: current.document },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'invalid') {
            const errors = outcome.violations.filter((v) => v.level === 'error').length;
            toast('error', t('notSavedErrors', { count: errors }));
            return setNotice({ tone: 'error', text: t('notSavedNotice', { count: errors }) });
          }
          setDraft((previous) => ({ ...previous, original: outcome.name, baseline: text }));
          setNotice(null);
          toast(outcome.warnings.length > 0 ? 'warning' : 'ok', t('savedToast', { name: outcome.name, count: outcome.warnings.length }));
        },
        onError: (cause) => toast('error', t('notSaved', { error: errorText(cause) })),
      },
    );
  };

  const deleteDraft = () => {
    if (!draft.original) return;
    const name = draft.original;
    remove.mutate(name, {
      onSuccess: () => {
        setConfirmDelete(false);
        load({ original: null, baseline: formatKpi(kpiTemplate('machine_type').definition) });
        toast('ok', t('deleted', { name }));
      },
      onError: (cause) => {
        setConfirmDelete(false);
        toast('error', t('notDeleted', { name, error: errorText(cause) }));
      },
    });
  };

  return (
    <section className="page" aria-labelledby="kpi-title">
      <div className="page-head">
        <h1 id="kpi-title">{tPages('kpis')}</h1>
        <span className="muted small">
          {draft.original ? t.rich('editing', { name: () => <strong className="mono">{draft.original}</strong> }) : t('newKpi')}
          {' · '}
          {kind === 'line' ? t('lineKpi') : t('machineKpi')}
          {dirty && <strong className="unsaved">{t('unsaved')}</strong>}
        </span>
      </div>
      {administer.allowed ? (
        <div className="toolbar">
          <div className="button-group" role="group" aria-label={t('fromTemplate')}>
            <span className="muted small">{t('newFromTemplate')}</span>
            {KPI_TEMPLATES.map((template) => (
              <button key={template.kind} type="button" className="button small" title={t(`templateDescriptions.${template.kind}`)} onClick={() => open({ original: null, baseline: formatKpi(template.definition) })}>
                {t(`templates.${template.kind}`)}
              </button>
            ))}
          </div>
          <span className="spacer" />
          <GatedButton gate={administer} className="button" onClick={() => setConfirmDelete(true)} disabled={!draft.original || remove.isPending}>
            {t('deleteButton')}
          </GatedButton>
          <GatedButton gate={administer} className="button button-primary" onClick={saveDraft} disabled={save.isPending || (!dirty && draft.original !== null)}>
            {tCommon('save')}
          </GatedButton>
        </div>
      ) : (
        <ReadOnlyNotice gate={administer} what="kpis" />
      )}
      {notice && (
        <div className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {library.isError && <ErrorNotice title={t('libraryUnreadable')} error={library.error} />}
      <div className="kpi-layout">
        <KpiLibraryList entries={library.data} loading={library.isPending} selected={draft.original} onOpen={(entry) => open({ original: entry.name, baseline: formatKpi(entry.definition) })} />
        <KpiEditorPanel readOnly={!administer.allowed} draftKey={draft.key} initial={draft.baseline} onChange={setText} syntax={checked.syntax} violations={violations} pending={pending} />
      </div>
      <KpiPreview document={checked.document} valid={valid} isLine={kind === 'line'} />
      <ConfirmDialog
        open={pendingOpen !== null}
        title={t('discardTitle')}
        confirmLabel={t('discardConfirm')}
        tone="danger"
        onCancel={() => setPendingOpen(null)}
        onConfirm={() => {
          if (pendingOpen) load(pendingOpen);
          setPendingOpen(null);
        }}
      >
        <p>{t('discardText')}</p>
      </ConfirmDialog>
      <ConfirmDialog open={confirmDelete} title={t('deleteTitle')} confirmLabel={tCommon('delete')} tone="danger" busy={remove.isPending} onCancel={() => setConfirmDelete(false)} onConfirm={deleteDraft}>
        <p>{t.rich('deleteText', { name: () => <strong className="mono">{draft.original}</strong> })}</p>
      </ConfirmDialog>
    </section>
  );
}
