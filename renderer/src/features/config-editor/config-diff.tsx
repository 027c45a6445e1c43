import { DiffEditor } from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useRef } from 'react';

interface ConfigDiffProps {
  original: string;
  modified: string;
  theme: string;
  testId: string;
  /** Makes the right side editable and reports its text ("copy this source to…" fixes it there). */
  onModifiedChange?: (text: string) => void;
}

/**
 * Two configuration texts side by side, read-only, opened at the first change with the unchanged
 * stretches folded away (the save dialog, the History panel, the copy dialog).
 */
export function ConfigDiff({ original, modified, theme, testId, onModifiedChange }: ConfigDiffProps) {
  const onChange = useRef(onModifiedChange);
  onChange.current = onModifiedChange;
  // The wrapper would dispose the models before the diff widget lets go of them (a page error);
  // keep them, and dispose them here once the widget is gone.
  const models = useRef<editor.ITextModel[]>([]);
  useEffect(
    () => () => {
      const stale = models.current;
      models.current = [];
      setTimeout(() => stale.forEach((model) => model.dispose()), 0);
    },
    [],
  );
  return (
    <div className="diff-box" data-testid={testId}>
      <DiffEditor
        original={original}
        modified={modified}
        language="json"
        theme={theme}
        keepCurrentOriginalModel
        keepCurrentModifiedModel
        onMount={(diff) => {
          const { original: left, modified: right } = diff.getModel() ?? {};
          models.current = [left, right].filter((model): model is editor.ITextModel => model !== undefined);
          diff.getModifiedEditor().onDidChangeModelContent(() => onChange.current?.(diff.getModifiedEditor().getValue()));
          // Open at the first change: line 1 of two equal texts tells nothing.
          const reveal = diff.onDidUpdateDiff(() => {
            const first = diff.getLineChanges()?.[0];
            if (!first) return;
            const line = Math.max(1, first.modifiedStartLineNumber || first.originalStartLineNumber);
            diff.getModifiedEditor().revealLineInCenter(line);
            reveal.dispose();
          });
        }}
        options={{
          readOnly: !onModifiedChange,
          originalEditable: false,
          renderSideBySide: true,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          automaticLayout: true,
          hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
        }}
      />
    </div>
  );
}
