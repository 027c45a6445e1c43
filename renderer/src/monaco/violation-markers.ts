import { agentTextOf } from '../i18n/agent-text.js';
import type { editor } from 'monaco-editor';
import type { Violation } from '../../../shared/config/violations.js';
import { jsonTree, rangeOfJsonPath } from './json-path-range.js';
import type { Monaco } from './setup.js';

export const MARKER_OWNER = 'tributary-validation';

/** A JSON syntax error at a place in the text (the place our parser says, not the next token). */
export interface SyntaxMarker {
  offset: number;
  length: number;
  message: string;
}

/**
 * Puts every problem on the editor as a marker: errors red, warnings amber. Syntax errors come
 * from our reading of the text (Monaco's own JSON diagnostics are off: they mark a missing comma
 * on the line after it); violations only when the text is valid JSON.
 */
export function showViolationMarkers(monaco: Monaco, model: editor.ITextModel, violations: readonly Violation[], syntax: readonly SyntaxMarker[] = []): void {
  const text = model.getValue();
  const markers: editor.IMarkerData[] = [];
  const mark = (offset: number, length: number, severity: number, message: string) => {
    const start = model.getPositionAt(offset);
    const end = model.getPositionAt(offset + length);
    markers.push({ severity, message, source: 'Tributary', startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column });
  };
  for (const problem of syntax) mark(problem.offset, Math.max(1, problem.length), monaco.MarkerSeverity.Error, problem.message);
  if (syntax.length === 0) {
    const tree = jsonTree(text);
    for (const violation of violations) {
      const range = rangeOfJsonPath(text, violation.json_path, tree);
      if (range) mark(range.offset, range.length, violation.level === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning, agentTextOf(violation, violation.description));
    }
  }
  monaco.editor.setModelMarkers(model, MARKER_OWNER, markers);
}
