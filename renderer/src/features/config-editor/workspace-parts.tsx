import { text, text as catalogText } from '../../i18n/language.js';
import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { errorText, useValidateNow } from '../../api/index.js';
import { CONFIG_MODEL_URI, type Monaco } from '../../monaco/setup.js';
import { readDocument } from './document-text.js';
import { LocalTime } from '../../components/local-time.js';
import type { Baseline } from './use-config-save.js';
import { type Notice, errorsIn } from './editor-text.js';
import { type ListedProblem, ViolationList } from './violation-list.js';

/** The notice of the last action, and a save refused because the configuration changed elsewhere. */
export function WorkspaceNotices({ notice, conflict, onReload }: { notice: Notice | null; conflict: string | null; onReload: () => void }) {
  return (
    <>
      {notice && (
        <div className={`notice notice-compact notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {conflict && (
        <div className="notice notice-compact notice-error" role="alert">
          <strong>{text('config.conflict')}</strong> <span>{conflict}</span>{' '}
          <button type="button" className="button small" onClick={onReload}>
            {text('config.loadSaved')}
          </button>
        </div>
      )}
    </>
  );
}

/** The page head's line: when the saved version was saved and by whom, and whether the editor differs. */
export function SavedVersion({ baseline, dirty }: { baseline: Baseline; dirty: boolean }) {
  return (
    <span className="muted small">
      {text('config.savedVersion')}
      <output aria-label={text('config.lastModified')}>{baseline.lastModified ? <LocalTime value={baseline.lastModified} /> : text('config.neverSaved')}</output>
      {baseline.savedBy && (
        <span>
          {text('config.by')}
          <output aria-label={text('config.savedBy')}>{baseline.savedBy}</output>
        </span>
      )}
      {dirty && <strong className="unsaved">{text('config.unsaved')}</strong>}
    </span>
  );
}

interface EditorPaneProps {
  initial: string;
  theme: string;
  errors: number;
  options: editor.IStandaloneEditorConstructionOptions;
  problems: ListedProblem[];
  pending: boolean;
  onPick: (problem: ListedProblem) => void;
  onChange: (text: string) => void;
  onMount: (instance: editor.IStandaloneCodeEditor, monaco: Monaco) => void;
}

/** The JSON editor beside its problem list. */
export function EditorPane({ initial, theme, errors, options, problems, pending, onPick, onChange, onMount }: EditorPaneProps) {
  return (
    <div className="editor-layout">
      <div className="editor-box" data-testid="config-editor" data-errors={errors}>
        <Editor
          path={CONFIG_MODEL_URI}
          language="json"
          theme={theme}
          // Uncontrolled on purpose: a controlled value races fast typing (the wrapper resets the
          // model to a stale value); the model is the truth and `text` mirrors it.
          defaultValue={initial}
          onChange={(value) => onChange(value ?? '')}
          onMount={onMount}
          loading={<p className="muted">{text('shell.loadingEditor')}</p>}
          options={options}
        />
      </div>
      <ViolationList problems={problems} pending={pending} onPick={onPick} />
    </div>
  );
}

/** The Validate button: checks the current text at once and says the outcome in words. */
export function useValidateButton(text: string, validateNow: () => void, setNotice: (notice: Notice | null) => void) {
  const validate = useValidateNow();
  return async () => {
    validateNow();
    const current = readDocument(text);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: catalogText('notices.notJson') });
    try {
      const result = await validate(text, current.document);
      const errors = errorsIn(result.violations);
      const warnings = result.violations.length - errors;
      setNotice(
        errors > 0
          ? { tone: 'error', text: catalogText('notices.validationFailed', { errors, warnings }) }
          : { tone: warnings > 0 ? 'warning' : 'ok', text: warnings > 0 ? catalogText('notices.validationWarnings', { count: warnings }) : catalogText('notices.validationPassed') },
      );
    } catch (cause) {
      setNotice({ tone: 'error', text: catalogText('notices.validationNotRun', { error: errorText(cause) }) });
    }
  };
}
