import type { editor } from 'monaco-editor';
import { rangeOfJsonPath } from '../../monaco/json-path-range.js';
import type { Monaco } from '../../monaco/setup.js';
import type { ListedProblem } from './violation-list.js';

/** What the configuration page says about the last action. */
export interface Notice {
  tone: 'ok' | 'error' | 'warning';
  text: string;
}

/** Errors among violations or listed problems. */
export const errorsIn = (list: readonly { level: string }[]) => list.filter((v) => v.level === 'error').length;

/** A Monaco range of `length` characters at `offset` of the model's text. */
export function rangeOf(monaco: Monaco, model: editor.ITextModel, offset: number, length: number) {
  const start = model.getPositionAt(offset);
  const end = model.getPositionAt(offset + length);
  return new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column);
}

/** Moves the cursor to `offset`, shows it in the middle of the editor and focuses it. */
export function jumpToOffset(editorInstance: editor.IStandaloneCodeEditor, model: editor.ITextModel, offset: number) {
  const position = model.getPositionAt(offset);
  editorInstance.setPosition(position);
  editorInstance.revealPositionInCenter(position);
  editorInstance.focus();
}

/** Moves the cursor to a listed problem: where its JSON path is now, else where it was found. */
export function jumpToProblem(editorInstance: editor.IStandaloneCodeEditor | null, problem: Pick<ListedProblem, 'path' | 'offset'>) {
  const model = editorInstance?.getModel();
  if (!editorInstance || !model) return;
  const offset = problem.path ? (rangeOfJsonPath(model.getValue(), problem.path)?.offset ?? problem.offset) : problem.offset;
  jumpToOffset(editorInstance, model, offset);
}
