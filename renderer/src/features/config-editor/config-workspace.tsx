import Editor from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TemplateProtocol, TransmitTemplateType } from '../../../../shared/config/templates.js';
import { type ActionGate, errorText, usePermission, useRestream, useSaveConfig, useValidateNow, useValidation } from '../../api/index.js';
import { useLeaveGuard } from '../../app/navigation.js';
import { useToast } from '../../app/toasts.js';
import { useDarkMode } from '../../app/use-color-scheme.js';
import { LocalTime } from '../../components/local-time.js';
import { plural } from '../../format/quantities.js';
import { JSON_EDITOR_OPTIONS } from '../../monaco/editor-options.js';
import { rangeOfJsonPath } from '../../monaco/json-path-range.js';
import { CONFIG_MODEL_URI, type Monaco } from '../../monaco/setup.js';
import { showViolationMarkers } from '../../monaco/violation-markers.js';
import type { ConfigChanges, RestreamRequest } from '../../../../shared/api/resources.js';
import { downloadConfiguration, uploadNotice } from './config-file.js';
import { readDocument } from './document-text.js';
import { HistoryPanel } from './history-panel.js';
import { type Insertion, insertReceiver, insertTransmit } from './insert-receiver.js';
import { PreviewDialog } from './preview-dialog.js';
import { listProblems, receiverAt, receiverNames } from './problems.js';
import { SaveDialog } from './save-dialog.js';
import { secretMaskEdits } from './secret-masks.js';
import { useDebouncedValue } from './use-debounced-value.js';
import { ViolationList, type ListedProblem } from './violation-list.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { CopyDialog } from './copy-dialog.js';
import { ConfigToolbar } from './config-toolbar.js';
import { ReadOnlyNotice } from '../../components/read-only-notice.js';

export interface Notice {
  tone: 'ok' | 'error' | 'warning';
  text: string;
}

interface WorkspaceProps {
  /** The saved text when the page was opened (or reloaded). */
  initial: string;
  initialLastModified: string | null;
  /** The saved revision: a save sends it back (If-Match), so that a newer save elsewhere is not overwritten. */
  initialRevision: number | null;
  /** The token name that saved it (null: unknown, e.g. edited by hand). */
  initialSavedBy: string | null;
  /** Loads the saved version again (after a conflict), discarding the draft. */
  onReload: () => void;
}

const VALIDATION_DELAY_MS = 400;
const errorsIn = (list: readonly { level: string }[]) => list.filter((v) => v.level === 'error').length;

export function ConfigWorkspace({ initial, initialLastModified, initialRevision, initialSavedBy, onReload }: WorkspaceProps) {
  // The saved version the draft is compared with. After a save it becomes the draft itself: the
  // editor keeps the engineer's text, formatting and cursor instead of reloading and reformatting.
  const [baseline, setBaseline] = useState({ text: initial, lastModified: initialLastModified, revision: initialRevision, savedBy: initialSavedBy });
  const [text, setText] = useState(initial);
  const [reviewing, setReviewing] = useState(false);
  const [changes, setChanges] = useState<ConfigChanges | undefined>(undefined);
  const [previewing, setPreviewing] = useState<{ receiver: string | undefined } | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  // A notice is about one text: once the text is another (an edit, a rename), it no longer applies and is not shown (issue 56).
  const [noticeState, setNoticeState] = useState<{ notice: Notice; about: string } | null>(null);
  const notice = noticeState && noticeState.about === text ? noticeState.notice : null;
  /** `about`: the text the notice speaks of, when the action that says it also changes the text. */
  const setNotice = (next: Notice | null, about: string = text) => setNoticeState(next ? { notice: next, about } : null);
  const [askDiscard, setAskDiscard] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [copying, setCopying] = useState(false);
  const editorRef = useRef<editor.IStandaloneCodeEditor | null>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  const toast = useToast();
  const dark = useDarkMode();
  const theme = dark ? 'vs-dark' : 'vs';

  const dirty = text !== baseline.text;
  useLeaveGuard(dirty ? 'Your changes to the configuration are not saved. They are lost if you leave this page.' : null);

  const [checkedText, validateNow] = useDebouncedValue(text, VALIDATION_DELAY_MS);
  const checked = useMemo(() => readDocument(checkedText), [checkedText]);
  const validation = useValidation(checkedText, checked.document, checked.syntax.length === 0);
  const validateForSave = useValidateNow();
  const save = useSaveConfig();
  const saveGate = usePermission('saveConfig');
  const restreamAfterSave = useRestream();
  // An operator previews the saved configuration only: with unsaved changes, preview is an admin's.
  const previewSaved = usePermission('previewConfig');
  const previewUnsaved = usePermission('admin');
  const previewGate: ActionGate = previewSaved.disabled || previewUnsaved.allowed || !dirty ? previewSaved : { allowed: true, disabled: true, title: 'Previewing unsaved changes needs the admin role (it reads whatever files they name); save or discard them to preview the saved configuration.' };

  const violations = useMemo(() => validation.data?.violations ?? [], [validation.data]);
  const problems: ListedProblem[] = useMemo(() => listProblems(checkedText, checked.syntax, violations), [checkedText, checked, violations]);
  const pending = checkedText !== text || validation.isFetching;

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (monaco && model) showViolationMarkers(monaco, model, violations, checked.syntax);
  }, [monaco, checked, violations]);

  const jumpTo = (problem: ListedProblem) => {
    const editorInstance = editorRef.current;
    const model = editorInstance?.getModel();
    if (!editorInstance || !model) return;
    const offset = problem.path ? (rangeOfJsonPath(model.getValue(), problem.path)?.offset ?? problem.offset) : problem.offset;
    jumpToOffset(editorInstance, model, offset);
  };

  /** Replaces the whole text as an edit, not setValue: Undo brings the previous text back. */
  const replaceText = (next: string) => {
    const model = editorRef.current?.getModel();
    if (model) model.pushEditOperations([], [{ range: model.getFullModelRange(), text: next }], () => null);
    setText(model?.getValue() ?? next);
  };

  const discard = () => {
    setAskDiscard(false);
    replaceText(baseline.text);
    setNotice(null);
  };

  /** A restored version goes through the normal save: its diff against the saved one, then what restarts. */
  const restore = (versionText: string, revision: number) => {
    setShowHistory(false);
    replaceText(versionText);
    setNotice({ tone: 'ok', text: `Revision ${revision} is in the editor; review and save it to restore it.` }, versionText);
    void startSave(versionText);
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const uploaded = await file.text();
    if (readDocument(uploaded).syntax.length > 0) return setNotice({ tone: 'error', text: `${file.name} is not a JSON configuration; the editor was left as it was.` });
    replaceText(uploaded);
    setNotice(uploadNotice(file.name, uploaded), uploaded);
  };

  /** The Validate button: checks the current text at once and says the outcome in words. */
  const validateCurrent = async () => {
    validateNow();
    const current = readDocument(text);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: 'The text is not valid JSON; see the problem list.' });
    try {
      const result = await validateForSave(text, current.document);
      const errors = errorsIn(result.violations);
      const warnings = result.violations.length - errors;
      setNotice(
        errors > 0
          ? { tone: 'error', text: `Validation failed: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}.` }
          : { tone: warnings > 0 ? 'warning' : 'ok', text: warnings > 0 ? `Validation passed with ${plural(warnings, 'warning')}.` : 'Validation passed: no problems.' },
      );
    } catch (cause) {
      setNotice({ tone: 'error', text: `Validation did not run: ${errorText(cause)}` });
    }
  };

  const insert = (template: { receiver: TemplateProtocol } | { transmit: TransmitTemplateType }) => {
    const editorInstance = editorRef.current;
    const model = editorInstance?.getModel();
    if (!editorInstance || !model || !monaco) return;
    const [section, nameKey, what]: [string, string, string] =
      'receiver' in template ? ['data_receiver', 'data_receiver_name', `${template.receiver} receiver`] : ['data_transmit', 'transmit_name', `${template.transmit} transmit`];
    const result: Insertion = 'receiver' in template ? insertReceiver(model.getValue(), template.receiver) : insertTransmit(model.getValue(), template.transmit);
    if ('problem' in result) return setNotice({ tone: 'error', text: result.problem });
    // Edits, not setValue: the rest of the text stays put and Undo removes the insertion.
    editorInstance.pushUndoStop();
    editorInstance.executeEdits('insert-template', result.edits.map((edit) => ({ range: rangeOf(monaco, model, edit.offset, edit.length), text: edit.content, forceMoveMarkers: true })));
    editorInstance.pushUndoStop();
    const nameRange = rangeOfJsonPath(model.getValue(), [section, result.index, nameKey]);
    if (nameRange) jumpToOffset(editorInstance, model, nameRange.offset);
    setNotice({ tone: 'ok', text: `Inserted the ${what} "${result.name}". Fill in the values marked <fill in: …>.` }, model.getValue());
  };

  const startPreview = () => {
    const current = readDocument(text);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: 'The text is not valid JSON; fix it to preview. See the problem list.' });
    const offset = editorRef.current?.getModel()?.getOffsetAt(editorRef.current.getPosition() ?? { lineNumber: 1, column: 1 }) ?? 0;
    setPreviewing({ receiver: receiverAt(text, offset, current.document) ?? receiverNames(current.document)[0] });
  };

  const startSave = async (draft = text) => {
    if (draft === text) setNotice(null);
    setConflict(null);
    const current = readDocument(draft);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: 'Not saved: the text is not valid JSON. See the problem list.' }, draft);
    validateNow();
    try {
      // Fresh, not from the cache: what a save restarts depends on what runs now.
      const result = await validateForSave(draft, current.document, { fresh: true });
      const errors = errorsIn(result.violations);
      if (errors > 0) return setNotice({ tone: 'error', text: `Not saved: the configuration has ${plural(errors, 'error')}. Fix them first; see the problem list.` }, draft);
      setChanges(result.changes);
      setReviewing(true);
    } catch (cause) {
      setNotice({ tone: 'error', text: `Not saved: ${errorText(cause)}` }, draft);
    }
  };

  const confirmSave = (restream?: RestreamRequest) => {
    save.mutate(
      { document: readDocument(text).document, expectedRevision: baseline.revision },
      {
        onSuccess: (outcome) => {
          setReviewing(false);
          if (outcome.kind === 'saved') {
            const model = editorRef.current?.getModel();
            if (model && monaco) {
              // Only a newly typed secret changes (to its mask); the rest of the text, and the cursor, stay.
              const edits = secretMaskEdits(model.getValue(), outcome.document);
              if (edits.length > 0) model.pushEditOperations([], edits.map((e) => ({ range: rangeOf(monaco, model, e.offset, e.length), text: e.content })), () => null);
            }
            const savedText = model?.getValue() ?? text;
            // Saved: what a notice said about the draft (a restore to review, an upload) is done.
            setNotice(null);
            setBaseline({ text: savedText, lastModified: outcome.lastModified, revision: outcome.revision, savedBy: outcome.savedBy });
            setText(savedText);
            const warned = outcome.warnings.length > 0 ? ` with ${plural(outcome.warnings.length, 'warning')}` : '';
            toast(outcome.warnings.length > 0 ? 'warning' : 'ok', `Configuration saved${warned}. ${describeApplied(outcome.changes)}`);
            if (restream) restreamAfterSave.mutate(restream, { onSuccess: () => toast('ok', 'Restream started: the chosen streams are read again and sent to the new transmit.'), onError: (cause) => toast('error', `Restream not started: ${errorText(cause)}`) });
          } else if (outcome.kind === 'invalid') {
            const errors = errorsIn(outcome.violations);
            setNotice({ tone: 'error', text: `Not saved: the agent found ${plural(errors, 'error')}.` });
            toast('error', `Configuration not saved: ${plural(errors, 'error')}.`);
          } else {
            setConflict(outcome.message);
            toast('error', 'Configuration not saved: it was changed elsewhere.');
          }
        },
        onError: (cause) => {
          setReviewing(false);
          toast('error', `Configuration not saved: ${errorText(cause)}`);
        },
      },
    );
  };

  const errors = errorsIn(problems);
  const editorOptions = useMemo(() => (saveGate.allowed ? JSON_EDITOR_OPTIONS : { ...JSON_EDITOR_OPTIONS, readOnly: true, readOnlyMessage: { value: 'Read-only: your role may not change the configuration.' } }), [saveGate.allowed]);
  const savedDocument = useMemo(() => readDocument(baseline.text).document as Record<string, unknown>, [baseline.text]);
  return (
    <section className="page page-fill" aria-labelledby="config-title">
      <div className="page-head">
        <h1 id="config-title">Configuration</h1>
        <span className="muted small">
          Saved version: <output aria-label="Last modified">{baseline.lastModified ? <LocalTime value={baseline.lastModified} /> : 'never saved'}</output>
          {baseline.savedBy && <span> by <output aria-label="Saved by">{baseline.savedBy}</output></span>}
          {dirty && <strong className="unsaved"> · unsaved changes</strong>}
        </span>
      </div>
      <ConfigToolbar
        ready={monaco !== null}
        saveGate={saveGate}
        previewGate={previewGate}
        previewTitle={previewUnsaved.allowed ? 'Read the first records of the receiver the cursor is in, as the agent would, without saving' : "Read the first records of the saved configuration's receiver the cursor is in"}
        dirty={dirty}
        saving={save.isPending}
        onInsert={insert}
        onPreview={startPreview}
        onValidate={() => void validateCurrent()}
        onHistory={() => setShowHistory(true)}
        onCopy={() => setCopying(true)}
        onDownload={() => downloadConfiguration(baseline.text, baseline.revision)}
        onUpload={upload}
        onDiscard={() => setAskDiscard(true)}
        onSave={() => void startSave()}
      />
      <ReadOnlyNotice gate={saveGate} what="the configuration" />
      {notice && (
        <div className={`notice notice-compact notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </div>
      )}
      {conflict && (
        <div className="notice notice-compact notice-error" role="alert">
          <strong>Not saved: the configuration was changed elsewhere after you opened it.</strong> <span>{conflict}</span>{' '}
          <button type="button" className="button small" onClick={onReload}>
            Load the saved version (discards your changes)
          </button>
        </div>
      )}
      <p className="muted small hint">Passwords and API keys show as ******** — leave them so to keep the saved value. Ctrl+Space lists the fields and values that fit where the cursor is.</p>
      <div className="editor-layout">
        <div className="editor-box" data-testid="config-editor" data-errors={errors}>
          <Editor
            path={CONFIG_MODEL_URI}
            language="json"
            theme={theme}
            // Uncontrolled on purpose: a controlled value races fast typing (the wrapper resets the
            // model to a stale value); the model is the truth and `text` mirrors it.
            defaultValue={initial}
            onChange={(value) => setText(value ?? '')}
            onMount={(instance, monacoInstance) => {
              editorRef.current = instance;
              setMonaco(monacoInstance);
            }}
            loading={<p className="muted">Loading the editor…</p>}
            options={editorOptions}
          />
        </div>
        <ViolationList problems={problems} pending={pending} onPick={jumpTo} />
      </div>
      <SaveDialog
        open={reviewing}
        saved={baseline.text}
        draft={text}
        lastModified={baseline.lastModified}
        warnings={problems.length - errors}
        changes={changes}
        busy={save.isPending}
        theme={theme}
        onCancel={() => setReviewing(false)}
        onConfirm={confirmSave}
      />
      <ConfirmDialog open={askDiscard} title="Discard your changes?" confirmLabel="Discard changes" tone="danger" onConfirm={discard} onCancel={() => setAskDiscard(false)}>
        <p>The editor goes back to the saved version{baseline.lastModified ? <> of <LocalTime value={baseline.lastModified} /></> : ''}. Undo (Ctrl+Z) in the editor brings your changes back.</p>
      </ConfirmDialog>
      <HistoryPanel open={showHistory} current={baseline.text} theme={theme} canRestore={!saveGate.disabled} onClose={() => setShowHistory(false)} onRestore={restore} />
      {copying && <CopyDialog open source={savedDocument} theme={theme} onClose={() => setCopying(false)} />}
      <PreviewDialog
        open={previewing !== null}
        document={previewing && previewUnsaved.allowed ? readDocument(text).document : undefined}
        receivers={previewing ? receiverNames(readDocument(text).document) : []}
        initialReceiver={previewing?.receiver}
        onClose={() => setPreviewing(null)}
      />
    </section>
  );
}

function rangeOf(monaco: Monaco, model: editor.ITextModel, offset: number, length: number) {
  const start = model.getPositionAt(offset);
  const end = model.getPositionAt(offset + length);
  return new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column);
}

function jumpToOffset(editorInstance: editor.IStandaloneCodeEditor, model: editor.ITextModel, offset: number) {
  const position = model.getPositionAt(offset);
  editorInstance.setPosition(position);
  editorInstance.revealPositionInCenter(position);
  editorInstance.focus();
}

/** The save's meta.changes in one sentence for the toast. */
function describeApplied(changes: ConfigChanges): string {
  const parts = [
    changes.restart.length > 0 ? `restarted ${changes.restart.length}` : '',
    changes.start.length > 0 ? `started ${changes.start.length}` : '',
    changes.stop.length > 0 ? `stopped ${changes.stop.length}` : '',
    changes.keep.length > 0 ? `${changes.keep.length} kept running` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Services: ${parts.join(', ')}.` : 'The agent is not running: nothing was restarted.';
}
