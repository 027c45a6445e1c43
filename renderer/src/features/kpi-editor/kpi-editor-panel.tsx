import { text } from '../../i18n/language.js';
import { agentTextOf } from '../../i18n/agent-text.js';
import { useTranslations } from 'use-intl';
import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Violation } from '../../../../shared/config/violations.js';
import { useDarkMode } from '../../app/use-color-scheme.js';
import { rangeOfJsonPath } from '../../monaco/json-path-range.js';
import { showViolationMarkers } from '../../monaco/violation-markers.js';
import { pathText, type SyntaxProblem } from './kpi-draft.js';
import { kpiModelUri, type monaco as MonacoNamespace } from './kpi-monaco.js';
import { JSON_EDITOR_OPTIONS } from '../../monaco/editor-options.js';

type Monaco = typeof MonacoNamespace;

interface EditorPanelProps {
  /** Identifies the opened draft; a new key starts a new model with `initial`. */
  draftKey: number;
  initial: string;
  onChange: (text: string) => void;
  syntax: readonly SyntaxProblem[];
  violations: readonly Violation[];
  /** Validation of the current text is still running. */
  pending: boolean;
  /** The role may not save KPIs: the editor takes no typing (issue 56). */
  readOnly?: boolean;
}

/** The Monaco editor of a KPI draft, with violations as markers and listed below it. */
export function KpiEditorPanel({ draftKey, initial, onChange, syntax, violations, pending, readOnly = false }: EditorPanelProps) {
  const t = useTranslations('kpi');
  const options = useMemo(() => (readOnly ? { ...JSON_EDITOR_OPTIONS, readOnly: true, readOnlyMessage: { value: t('readOnlyEditor') } } : JSON_EDITOR_OPTIONS), [readOnly, t]);
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  const dark = useDarkMode();

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!monaco || !model) return;
    showViolationMarkers(monaco, model, violations, syntax);
  }, [monaco, syntax, violations, draftKey]);

  const jump = (offset: number) => {
    const instance = editorRef.current;
    const model = instance?.getModel();
    if (!instance || !model) return;
    const position = model.getPositionAt(offset);
    instance.setPosition(position);
    instance.revealPositionInCenter(position);
    instance.focus();
  };

  const errors = syntax.length > 0 ? syntax.length : violations.filter((v) => v.level === 'error').length;
  const warnings = syntax.length > 0 ? [] : violations.filter((v) => v.level === 'warning');
  return (
    <div className="kpi-editor-column">
      <div className="editor-box kpi-editor-box" data-testid="kpi-editor" data-errors={errors}>
        <Editor
          key={draftKey}
          path={kpiModelUri(draftKey)}
          language="json"
          theme={dark ? 'vs-dark' : 'vs'}
          // Uncontrolled, as in the configuration editor: the model is the truth, `text` mirrors it.
          defaultValue={initial}
          onChange={(value) => onChange(value ?? '')}
          onMount={(instance, monacoInstance) => {
            editorRef.current = instance;
            setMonaco(monacoInstance);
          }}
          loading={<p className="muted">{text('shell.loadingEditor')}</p>}
          options={options}
        />
      </div>
      <div className="kpi-validation" aria-live="polite">
        {pending ? (
          <p className="muted small">{t('checking')}</p>
        ) : errors === 0 ? (
          <p className="kpi-valid" role="status">
            {warnings.length > 0 ? t('validWarnings', { count: warnings.length }) : t('valid')}
          </p>
        ) : (
          <p className="kpi-invalid">{t('invalid', { count: errors })}</p>
        )}
        <ul className="violation-list" aria-label={t('violations')}>
          {syntax.map((problem, i) => (
            <li key={`s${i}`}>
              <button type="button" className="violation violation-error" data-level="error" onClick={() => jump(problem.offset)}>
                <span className="violation-level">{t('levels.error')}</span>
                <span className="violation-text">{problem.message}</span>
              </button>
            </li>
          ))}
          {syntax.length === 0 &&
            violations.map((violation, i) => (
              <li key={`v${i}`}>
                <button
                  type="button"
                  className={`violation violation-${violation.level}`}
                  data-level={violation.level}
                  onClick={() => jump(rangeOfJsonPath(editorRef.current?.getModel()?.getValue() ?? '', violation.json_path)?.offset ?? 0)}
                >
                  <span className="violation-level">{t(`levels.${violation.level}`)}</span>
                  <span className="violation-text">{agentTextOf(violation, violation.description)}</span>
                  <span className="violation-path mono">{pathText(violation.json_path)}</span>
                </button>
              </li>
            ))}
        </ul>
      </div>
    </div>
  );
}
