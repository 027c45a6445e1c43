import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useMemo, useRef, useState } from 'react';
import { TEMPLATE_PROTOCOLS, TRANSMIT_TEMPLATE_TYPES, type TemplateProtocol, type TransmitTemplateType } from '../../../../shared/config/templates.js';
import { errorText, useReloadConfig, useSaveConfig, useValidateNow, useValidation } from '../../api/index.js';
import { useLeaveGuard } from '../../app/navigation.js';
import { useDarkMode } from '../../app/use-color-scheme.js';
import { rangeOfJsonPath } from '../../monaco/json-path-range.js';
import { CONFIG_MODEL_URI, type Monaco } from '../../monaco/setup.js';
import { showViolationMarkers } from '../../monaco/violation-markers.js';
import type { ConfigChanges } from '../../../../shared/api/resources.js';
import { readDocument } from './document-text.js';
import { type Insertion, insertReceiver, insertTransmit } from './insert-receiver.js';
import { SaveDialog } from './save-dialog.js';
import { useDebouncedValue } from './use-debounced-value.js';
import { ViolationList, type ListedProblem } from './violation-list.js';
import { JSON_EDITOR_OPTIONS } from '../../monaco/editor-options.js';

export interface Notice {
  tone: 'ok' | 'error' | 'warning';
  text: string;
}

interface WorkspaceProps {
  saved: string;
  lastModified: string | null;
  /** The saved revision: a save sends it back (If-Match), so that a newer save elsewhere is not overwritten. */
  revision: number | null;
  notice: Notice | null;
  onNotice: (notice: Notice | null) => void;
}

const VALIDATION_DELAY_MS = 400;

export function ConfigWorkspace({ saved, lastModified, revision, notice, onNotice }: WorkspaceProps) {
  const [text, setText] = useState(saved);
  const [reviewing, setReviewing] = useState(false);
  const [changes, setChanges] = useState<ConfigChanges | undefined>(undefined);
  const [conflict, setConflict] = useState<string | null>(null);
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  const dark = useDarkMode();
  const theme = dark ? 'vs-dark' : 'vs';

  const dirty = text !== saved;
  useLeaveGuard(dirty ? 'Your changes to the configuration are not saved. They are lost if you leave this page.' : null);

  const [checkedText, validateNow] = useDebouncedValue(text, VALIDATION_DELAY_MS);
  const checked = useMemo(() => readDocument(checkedText), [checkedText]);
  const validation = useValidation(checkedText, checked.document, checked.syntax.length === 0);
  const validateForSave = useValidateNow();
  const save = useSaveConfig();
  const reload = useReloadConfig();

  const problems: ListedProblem[] = useMemo(() => {
    if (checked.syntax.length > 0)
      return checked.syntax.map((s, i) => ({ key: `syntax-${i}`, level: 'error', description: s.message, line: lineOf(checkedText, s.offset) }));
    return (validation.data?.violations ?? []).map((v, i) => ({ key: `v-${i}`, level: v.level, description: v.description, path: v.json_path }));
  }, [checked, checkedText, validation.data]);
  const pending = checkedText !== text || validation.isFetching;

  // Markers follow the violations; Monaco itself marks JSON syntax errors.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!monaco || !model) return;
    showViolationMarkers(monaco, model, checked.syntax.length > 0 ? [] : (validation.data?.violations ?? []));
  }, [monaco, checked, validation.data]);

  const jumpTo = (problem: ListedProblem) => {
    const editorInstance = editorRef.current;
    const model = editorInstance?.getModel();
    if (!editorInstance || !model) return;
    const offset = problem.path ? rangeOfJsonPath(model.getValue(), problem.path)?.offset : checked.syntax[Number(problem.key.slice('syntax-'.length))]?.offset;
    jumpToOffset(editorInstance, model, offset ?? 0);
  };

  const discard = () => {
    const model = editorRef.current?.getModel();
    // An edit, not setValue: Undo brings the discarded changes back.
    if (model) model.pushEditOperations([], [{ range: model.getFullModelRange(), text: saved }], () => null);
    onNotice(null);
  };

  /** The Validate button: checks the current text at once and says the outcome in words. */
  const validateCurrent = async () => {
    validateNow();
    const current = readDocument(text);
    if (current.syntax.length > 0) return onNotice({ tone: 'error', text: 'The text is not valid JSON; see the problem list.' });
    try {
      const result = await validateForSave(text, current.document);
      const errors = result.violations.filter((v) => v.level === 'error').length;
      const warnings = result.violations.length - errors;
      onNotice(
        errors > 0
          ? { tone: 'error', text: `Validation failed: ${errors} error(s), ${warnings} warning(s).` }
          : { tone: warnings > 0 ? 'warning' : 'ok', text: warnings > 0 ? `Validation passed with ${warnings} warning(s).` : 'Validation passed: no problems.' },
      );
    } catch (cause) {
      onNotice({ tone: 'error', text: `Validation did not run: ${errorText(cause)}` });
    }
  };

  const insert = (template: { receiver: TemplateProtocol } | { transmit: TransmitTemplateType }) => {
    const editorInstance = editorRef.current;
    const model = editorInstance?.getModel();
    if (!editorInstance || !model || !monaco) return;
    const [section, nameKey, what]: [string, string, string] =
      'receiver' in template ? ['data_receiver', 'data_receiver_name', `${template.receiver} receiver`] : ['data_transmit', 'transmit_name', `${template.transmit} transmit`];
    const result: Insertion = 'receiver' in template ? insertReceiver(model.getValue(), template.receiver) : insertTransmit(model.getValue(), template.transmit);
    if ('problem' in result) return onNotice({ tone: 'error', text: result.problem });
    // Edits, not setValue: the rest of the text stays put and Undo removes the insertion.
    editorInstance.pushUndoStop();
    editorInstance.executeEdits(
      'insert-template',
      result.edits.map((edit) => {
        const start = model.getPositionAt(edit.offset);
        const end = model.getPositionAt(edit.offset + edit.length);
        return { range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: edit.content, forceMoveMarkers: true };
      }),
    );
    editorInstance.pushUndoStop();
    const nameRange = rangeOfJsonPath(model.getValue(), [section, result.index, nameKey]);
    if (nameRange) jumpToOffset(editorInstance, model, nameRange.offset);
    onNotice({ tone: 'ok', text: `Inserted the ${what} "${result.name}". Fill in the values marked <fill in: …>.` });
  };

  const startSave = async () => {
    onNotice(null);
    setConflict(null);
    const current = readDocument(text);
    if (current.syntax.length > 0) return onNotice({ tone: 'error', text: 'Not saved: the text is not valid JSON. See the problem list.' });
    validateNow();
    try {
      // Fresh, not from the cache: what a save restarts depends on what runs now.
      const result = await validateForSave(text, current.document, { fresh: true });
      const errors = result.violations.filter((v) => v.level === 'error').length;
      if (errors > 0) return onNotice({ tone: 'error', text: `Not saved: the configuration has ${errors} error(s). Fix them first; see the problem list.` });
      setChanges(result.changes);
      setReviewing(true);
    } catch (cause) {
      onNotice({ tone: 'error', text: `Not saved: ${errorText(cause)}` });
    }
  };

  const confirmSave = () => {
    save.mutate(
      { document: readDocument(text).document, expectedRevision: revision },
      {
        onSuccess: (outcome) => {
          setReviewing(false);
          if (outcome.kind === 'saved') {
            const warned = outcome.warnings.length > 0 ? ` with ${outcome.warnings.length} warning(s)` : '';
            const applied = outcome.changes ? ` ${describeApplied(outcome.changes)}` : '';
            onNotice({ tone: outcome.warnings.length > 0 ? 'warning' : 'ok', text: `Saved${warned}. Last modified ${outcome.lastModified ?? 'now'} UTC.${applied}` });
          } else if (outcome.kind === 'invalid') {
            onNotice({ tone: 'error', text: `Not saved: the agent found ${outcome.violations.filter((v) => v.level === 'error').length} error(s).` });
          } else {
            setConflict(outcome.message);
          }
        },
        onError: (cause) => {
          setReviewing(false);
          onNotice({ tone: 'error', text: `Not saved: ${errorText(cause)}` });
        },
      },
    );
  };

  const errors = problems.filter((p) => p.level === 'error').length;
  return (
    <section className="page page-fill" aria-labelledby="config-title">
      <div className="page-head">
        <h1 id="config-title">Configuration</h1>
        <span className="muted small">
          Saved version: <output aria-label="Last modified">{lastModified ?? 'never saved'}</output>
          {lastModified ? ' UTC' : ''}
          {dirty && <strong className="unsaved"> · unsaved changes</strong>}
        </span>
      </div>
      <div className="toolbar">
        <div className="button-group" role="group" aria-label="Insert template">
          <span className="muted small">Insert template:</span>
          {TEMPLATE_PROTOCOLS.map((protocol) => (
            <button key={protocol} type="button" className="button small" onClick={() => insert({ receiver: protocol })} disabled={!monaco} title={`Add a ${protocol} receiver to data_receiver`}>
              {protocol}
            </button>
          ))}
          {TRANSMIT_TEMPLATE_TYPES.map((type) => (
            <button key={`transmit-${type}`} type="button" className="button small" onClick={() => insert({ transmit: type })} disabled={!monaco} title={`Add a ${type} transmit to data_transmit`}>
              {type} transmit
            </button>
          ))}
        </div>
        <span className="spacer" />
        <button type="button" className="button" onClick={() => void validateCurrent()} disabled={!monaco}>
          Validate
        </button>
        <button type="button" className="button" onClick={discard} disabled={!dirty}>
          Discard changes
        </button>
        <button type="button" className="button button-primary" onClick={() => void startSave()} disabled={!dirty || save.isPending}>
          Save…
        </button>
      </div>
      {notice && (
        <div className={`notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {conflict && (
        <div className="notice notice-error" role="alert">
          <strong>Not saved: the configuration was changed elsewhere after you opened it.</strong> <span>{conflict}</span>{' '}
          <button type="button" className="button small" onClick={() => void reload()}>
            Load the saved version (discards your changes)
          </button>
        </div>
      )}
      <p className="muted small hint">Passwords and API keys show as ******** — leave them so to keep the saved value.</p>
      <div className="editor-layout">
        <div className="editor-box" data-testid="config-editor" data-errors={errors}>
          <Editor
            path={CONFIG_MODEL_URI}
            language="json"
            theme={theme}
            // Uncontrolled on purpose: a controlled value races fast typing (the wrapper resets the
            // model to a stale value); the model is the truth and `text` mirrors it.
            defaultValue={saved}
            onChange={(value) => setText(value ?? '')}
            onMount={(instance, monacoInstance) => {
              editorRef.current = instance;
              setMonaco(monacoInstance);
            }}
            loading={<p className="muted">Loading the editor…</p>}
            options={JSON_EDITOR_OPTIONS}
          />
        </div>
        <ViolationList problems={problems} pending={pending} onPick={jumpTo} />
      </div>
      <SaveDialog
        open={reviewing}
        saved={saved}
        draft={text}
        lastModified={lastModified}
        warnings={problems.length - errors}
        changes={changes}
        busy={save.isPending}
        theme={theme}
        onCancel={() => setReviewing(false)}
        onConfirm={confirmSave}
      />
    </section>
  );
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

function jumpToOffset(editorInstance: editor.IStandaloneCodeEditor, model: editor.ITextModel, offset: number) {
  const position = model.getPositionAt(offset);
  editorInstance.setPosition(position);
  editorInstance.revealPositionInCenter(position);
  editorInstance.focus();
}

/** The save's meta.changes in one sentence for the notice. */
function describeApplied(changes: ConfigChanges): string {
  const parts = [
    changes.restart.length > 0 ? `restarted ${changes.restart.length}` : '',
    changes.start.length > 0 ? `started ${changes.start.length}` : '',
    changes.stop.length > 0 ? `stopped ${changes.stop.length}` : '',
    changes.keep.length > 0 ? `${changes.keep.length} kept running` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Services: ${parts.join(', ')}.` : '';
}
