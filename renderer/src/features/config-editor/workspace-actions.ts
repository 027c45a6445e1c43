/**
 * What the Configuration page's toolbar does to the editor's text (insert a template, read an
 * uploaded file), apart from the page's component so that it stays a page of named parts.
 */
import type { editor } from 'monaco-editor';
import type { TemplateProtocol, TransmitTemplateType } from '../../../../shared/config/templates.js';
import { text as catalogText } from '../../i18n/language.js';
import { rangeOfJsonPath } from '../../monaco/json-path-range.js';
import type { Monaco } from '../../monaco/setup.js';
import { uploadNotice } from './config-file.js';
import { readDocument } from './document-text.js';
import { type Notice, jumpToOffset, rangeOf } from './editor-text.js';
import { type Insertion, insertReceiver, insertTransmit } from './insert-receiver.js';

type SetNotice = (next: Notice | null, about?: string) => void;

/** Inserts a receiver or transmit template as edits (Undo removes it) and puts the cursor on its name. */
export function insertTemplate(
  editorInstance: editor.IStandaloneCodeEditor | null,
  monaco: Monaco | null,
  template: { receiver: TemplateProtocol } | { transmit: TransmitTemplateType },
  setNotice: SetNotice,
): void {
  const model = editorInstance?.getModel();
  if (!editorInstance || !model || !monaco) return;
  const [section, nameKey, what]: [string, string, string] =
    'receiver' in template ? ['data_receiver', 'data_receiver_name', catalogText('notices.receiverWhat', { kind: template.receiver })] : ['data_transmit', 'transmit_name', catalogText('notices.transmitWhat', { kind: template.transmit })];
  const result: Insertion = 'receiver' in template ? insertReceiver(model.getValue(), template.receiver) : insertTransmit(model.getValue(), template.transmit);
  if ('problem' in result) return setNotice({ tone: 'error', text: result.problem });
  // Edits, not setValue: the rest of the text stays put and Undo removes the insertion.
  editorInstance.pushUndoStop();
  editorInstance.executeEdits('insert-template', result.edits.map((edit) => ({ range: rangeOf(monaco, model, edit.offset, edit.length), text: edit.content, forceMoveMarkers: true })));
  editorInstance.pushUndoStop();
  const nameRange = rangeOfJsonPath(model.getValue(), [section, result.index, nameKey]);
  if (nameRange) jumpToOffset(editorInstance, model, nameRange.offset);
  setNotice({ tone: 'ok', text: catalogText('notices.inserted', { what, name: result.name, marker: '<fill in: …>' }) }, model.getValue());
}

/** Reads an uploaded file into the editor (as an edit), or says why it is not a configuration. */
export async function uploadFile(file: File | undefined, replaceText: (next: string) => void, setNotice: SetNotice): Promise<void> {
  if (!file) return;
  const uploaded = await file.text();
  if (readDocument(uploaded).syntax.length > 0) return setNotice({ tone: 'error', text: catalogText('notices.notJsonFile', { file: file.name }) });
  replaceText(uploaded);
  setNotice(uploadNotice(file.name, uploaded), uploaded);
}
