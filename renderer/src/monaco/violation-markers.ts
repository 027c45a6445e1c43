import type { editor } from 'monaco-editor';
import type { Violation } from '../../../shared/config/violations.js';
import { jsonTree, rangeOfJsonPath } from './json-path-range.js';
import type { Monaco } from './setup.js';

export const MARKER_OWNER = 'tributary-validation';

/** Puts every violation on the editor as a marker: errors red, warnings amber. */
export function showViolationMarkers(monaco: Monaco, model: editor.ITextModel, violations: readonly Violation[]): void {
  const text = model.getValue();
  const tree = jsonTree(text);
  const markers: editor.IMarkerData[] = [];
  for (const violation of violations) {
    const range = rangeOfJsonPath(text, violation.json_path, tree);
    if (!range) continue;
    const start = model.getPositionAt(range.offset);
    const end = model.getPositionAt(range.offset + range.length);
    markers.push({
      severity: violation.level === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
      message: violation.description,
      source: 'Tributary',
      startLineNumber: start.lineNumber,
      startColumn: start.column,
      endLineNumber: end.lineNumber,
      endColumn: end.column,
    });
  }
  monaco.editor.setModelMarkers(model, MARKER_OWNER, markers);
}

/** Line and column of a violation in the current text, for the list and for jumping there. */
export function positionOf(model: editor.ITextModel, violation: Violation): { lineNumber: number; column: number } | undefined {
  const range = rangeOfJsonPath(model.getValue(), violation.json_path);
  return range ? model.getPositionAt(range.offset) : undefined;
}
