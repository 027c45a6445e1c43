import type { editor } from 'monaco-editor';
import { type MutableRefObject, useState } from 'react';
import type { ConfigChanges, RestreamRequest } from '../../../../shared/api/resources.js';
import { errorText, useRestream, useSaveConfig, useValidateNow } from '../../api/index.js';
import type { SaveOutcome } from '../../api/client.js';
import { useToast } from '../../app/toasts.js';
import { text as text_ } from '../../i18n/language.js';
import type { Monaco } from '../../monaco/setup.js';
import { readDocument } from './document-text.js';
import { secretMaskEdits } from './secret-masks.js';
import { type Notice, errorsIn, rangeOf } from './editor-text.js';

/** The saved version the draft is compared with, and who saved it when. */
export interface Baseline {
  text: string;
  lastModified: string | null;
  revision: number | null;
  savedBy: string | null;
}

interface SaveFlowOptions {
  text: string;
  setText: (text: string) => void;
  baseline: Baseline;
  setBaseline: (baseline: Baseline) => void;
  setNotice: (notice: Notice | null, about?: string) => void;
  editorRef: MutableRefObject<editor.IStandaloneCodeEditor | null>;
  monaco: Monaco | null;
  /** Validates the current text at once (the problem list follows). */
  validateNow: () => void;
}

/**
 * The configuration's save: validated fresh (what restarts depends on what runs now), reviewed in the
 * save dialog, saved with the revision it started from; after the save the draft is the baseline
 * (only new secrets turn into their masks), and chosen streams are restreamed to a new transmit.
 */
export function useConfigSave({ text, setText, baseline, setBaseline, setNotice, editorRef, monaco, validateNow }: SaveFlowOptions) {
  const [reviewing, setReviewing] = useState(false);
  const [changes, setChanges] = useState<ConfigChanges | undefined>(undefined);
  const [conflict, setConflict] = useState<string | null>(null);
  const validateForSave = useValidateNow();
  const save = useSaveConfig();
  const restreamAfterSave = useRestream();
  const toast = useToast();

  const startSave = async (draft = text) => {
    if (draft === text) setNotice(null);
    setConflict(null);
    const current = readDocument(draft);
    if (current.syntax.length > 0) return setNotice({ tone: 'error', text: text_('notices.notJsonSave') }, draft);
    validateNow();
    try {
      // Fresh, not from the cache: what a save restarts depends on what runs now.
      const result = await validateForSave(draft, current.document, { fresh: true });
      const errors = errorsIn(result.violations);
      if (errors > 0) return setNotice({ tone: 'error', text: text_('notices.hasErrors', { count: errors }) }, draft);
      setChanges(result.changes);
      setReviewing(true);
    } catch (cause) {
      setNotice({ tone: 'error', text: text_('notices.notSaved', { error: errorText(cause) }) }, draft);
    }
  };

  const saved = (outcome: Extract<SaveOutcome, { kind: 'saved' }>, restream?: RestreamRequest) => {
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
    toast(outcome.warnings.length > 0 ? 'warning' : 'ok', text_('notices.saved', { count: outcome.warnings.length, applied: describeApplied(outcome.changes) }));
    if (restream) restreamAfterSave.mutate(restream, { onSuccess: () => toast('ok', text_('notices.restreamStarted')), onError: (cause) => toast('error', text_('notices.restreamNot', { error: errorText(cause) })) });
  };

  const confirmSave = (restream?: RestreamRequest) => {
    save.mutate(
      { document: readDocument(text).document, expectedRevision: baseline.revision },
      {
        onSuccess: (outcome) => {
          setReviewing(false);
          if (outcome.kind === 'saved') saved(outcome, restream);
          else if (outcome.kind === 'invalid') {
            const errors = errorsIn(outcome.violations);
            setNotice({ tone: 'error', text: text_('notices.agentFound', { count: errors }) });
            toast('error', text_('notices.notSavedCount', { count: errors }));
          } else {
            setConflict(outcome.message);
            toast('error', text_('notices.changedElsewhere'));
          }
        },
        onError: (cause) => {
          setReviewing(false);
          toast('error', text_('notices.notSavedError', { error: errorText(cause) }));
        },
      },
    );
  };

  return { reviewing, changes, conflict, saving: save.isPending, startSave, confirmSave, cancelReview: () => setReviewing(false) };
}

/** The save's meta.changes in one sentence for the toast. */
function describeApplied(changes: ConfigChanges): string {
  const parts = [
    changes.restart.length > 0 ? text_('notices.restarted', { count: changes.restart.length }) : '',
    changes.start.length > 0 ? text_('notices.started', { count: changes.start.length }) : '',
    changes.stop.length > 0 ? text_('notices.stopped', { count: changes.stop.length }) : '',
    changes.keep.length > 0 ? text_('notices.kept', { count: changes.keep.length }) : '',
  ].filter(Boolean);
  return parts.length > 0 ? text_('notices.applied', { parts: parts.join(', ') }) : text_('notices.notRunning');
}
