import { text as catalogText } from '../../i18n/language.js';
import { useTranslations } from 'use-intl';
import type { editor } from 'monaco-editor';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TemplateProtocol, TransmitTemplateType } from '../../../../shared/config/templates.js';
import { type ActionGate, usePermission, useValidation } from '../../api/index.js';
import { useLeaveGuard } from '../../app/navigation.js';
import { useDarkMode } from '../../app/use-color-scheme.js';
import { JSON_EDITOR_OPTIONS } from '../../monaco/editor-options.js';
import type { Monaco } from '../../monaco/setup.js';
import { showViolationMarkers } from '../../monaco/violation-markers.js';
import { downloadConfiguration } from './config-file.js';
import { readDocument } from './document-text.js';
import { listProblems, receiverAt, receiverNames } from './problems.js';
import { useDebouncedValue } from './use-debounced-value.js';
import type { ListedProblem } from './violation-list.js';
import { ConfigToolbar } from './config-toolbar.js';
import { type Baseline, useConfigSave } from './use-config-save.js';
import { type Notice, errorsIn, jumpToProblem } from './editor-text.js';
import { WorkspaceDialogs } from './workspace-dialogs.js';
import { insertTemplate, uploadFile } from './workspace-actions.js';
import { EditorPane, SavedVersion, WorkspaceNotices, useValidateButton } from './workspace-parts.js';
import { ReadOnlyNotice } from '../../components/read-only-notice.js';

export type { Notice };

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

export function ConfigWorkspace({ initial, initialLastModified, initialRevision, initialSavedBy, onReload }: WorkspaceProps) {
  // The saved version the draft is compared with. After a save it becomes the draft itself: the
  // editor keeps the engineer's text, formatting and cursor instead of reloading and reformatting.
  const [baseline, setBaseline] = useState<Baseline>({ text: initial, lastModified: initialLastModified, revision: initialRevision, savedBy: initialSavedBy });
  const [text, setText] = useState(initial);
  const t = useTranslations('config');
  const tPages = useTranslations('pages');
  const [previewing, setPreviewing] = useState<{ receiver: string | undefined } | null>(null);
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
  const dark = useDarkMode();
  const theme = dark ? 'vs-dark' : 'vs';

  const dirty = text !== baseline.text;
  useLeaveGuard(dirty ? catalogText('notices.leaveConfig') : null);

  const [checkedText, validateNow] = useDebouncedValue(text, VALIDATION_DELAY_MS);
  const checked = useMemo(() => readDocument(checkedText), [checkedText]);
  const validation = useValidation(checkedText, checked.document, checked.syntax.length === 0);
  const saveGate = usePermission('saveConfig');
  const saveFlow = useConfigSave({ text, setText, baseline, setBaseline, setNotice, editorRef, monaco, validateNow });
  const { startSave } = saveFlow;
  // An operator previews the saved configuration only: with unsaved changes, preview is an admin's.
  const previewSaved = usePermission('previewConfig');
  const previewUnsaved = usePermission('admin');
  const previewGate: ActionGate = previewSaved.disabled || previewUnsaved.allowed || !dirty ? previewSaved : { allowed: true, disabled: true, title: catalogText('notices.previewAdmin') };

  const violations = useMemo(() => validation.data?.violations ?? [], [validation.data]);
  const problems: ListedProblem[] = useMemo(() => listProblems(checkedText, checked.syntax, violations), [checkedText, checked, violations]);
  const pending = checkedText !== text || validation.isFetching;

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (monaco && model) showViolationMarkers(monaco, model, violations, checked.syntax);
  }, [monaco, checked, violations]);

  const jumpTo = (problem: ListedProblem) => jumpToProblem(editorRef.current, problem);

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
    setNotice({ tone: 'ok', text: catalogText('notices.restoreInEditor', { revision }) }, versionText);
    void startSave(versionText);
  };

  const upload = (file: File | undefined) => uploadFile(file, replaceText, setNotice);

  const validateCurrent = useValidateButton(text, validateNow, setNotice);

  const insert = (template: { receiver: TemplateProtocol } | { transmit: TransmitTemplateType }) => insertTemplate(editorRef.current, monaco, template, setNotice);

  const startPreview = () => {
    const current = readDocument(text);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: catalogText('notices.notJsonPreview') });
    const offset = editorRef.current?.getModel()?.getOffsetAt(editorRef.current.getPosition() ?? { lineNumber: 1, column: 1 }) ?? 0;
    setPreviewing({ receiver: receiverAt(text, offset, current.document) ?? receiverNames(current.document)[0] });
  };

  const errors = errorsIn(problems);
  const editorOptions = useMemo(() => (saveGate.allowed ? JSON_EDITOR_OPTIONS : { ...JSON_EDITOR_OPTIONS, readOnly: true, readOnlyMessage: { value: t('readOnlyEditor') } }), [saveGate.allowed, t]);
  return (
    <section className="page page-fill" aria-labelledby="config-title">
      <div className="page-head">
        <h1 id="config-title">{tPages('configuration')}</h1>
        <SavedVersion baseline={baseline} dirty={dirty} />
      </div>
      <ConfigToolbar
        ready={monaco !== null}
        saveGate={saveGate}
        previewGate={previewGate}
        previewTitle={previewUnsaved.allowed ? t('previewUnsaved') : t('previewSaved')}
        dirty={dirty}
        saving={saveFlow.saving}
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
      <ReadOnlyNotice gate={saveGate} what="configuration" />
      <WorkspaceNotices notice={notice} conflict={saveFlow.conflict} onReload={onReload} />
      <p className="muted small hint">{t('hint')}</p>
      <EditorPane
        initial={initial}
        theme={theme}
        errors={errors}
        options={editorOptions}
        problems={problems}
        pending={pending}
        onPick={jumpTo}
        onChange={setText}
        onMount={(instance, monacoInstance) => {
          editorRef.current = instance;
          setMonaco(monacoInstance);
        }}
      />
      <WorkspaceDialogs
        saveFlow={saveFlow}
        baseline={baseline}
        text={text}
        warnings={problems.length - errors}
        theme={theme}
        askDiscard={askDiscard}
        onDiscard={discard}
        onKeep={() => setAskDiscard(false)}
        showHistory={showHistory}
        canRestore={!saveGate.disabled}
        onCloseHistory={() => setShowHistory(false)}
        onRestore={restore}
        copying={copying}
        onCloseCopy={() => setCopying(false)}
        previewing={previewing}
        previewUnsaved={previewUnsaved.allowed}
        onClosePreview={() => setPreviewing(null)}
      />
    </section>
  );
}
