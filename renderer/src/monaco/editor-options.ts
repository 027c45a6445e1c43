import type { editor } from 'monaco-editor';

/** Options shared by the console's JSON editors (configuration, KPI). */
export const JSON_EDITOR_OPTIONS: editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  tabSize: 2,
  insertSpaces: true,
  scrollBeyondLastLine: false,
  automaticLayout: true,
  fontSize: 13,
  renderValidationDecorations: 'on',
  // Completion comes from the schema; words already in the document would only be noise there.
  wordBasedSuggestions: 'off',
  quickSuggestions: { strings: true, other: true, comments: false },
};
