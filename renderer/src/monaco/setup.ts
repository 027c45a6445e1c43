/**
 * Monaco, bundled: no CDN, no network. The @monaco-editor/react loader is pointed at this copy,
 * workers come from our own origin (Vite `?worker`), and the JSON language is fed the
 * configuration's JSON Schema (generated from the shared zod schema) for completion and hover docs.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import { onLanguageChange } from '../i18n/language.js';
import { quietMonacoCancellations } from './cancellations.js';
import { editorSchema } from './editor-schema.js';

/** The model the configuration editor edits; the schema applies to this URI only. */
export const CONFIG_MODEL_URI = 'inmemory://tributary/configuration.json';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

monaco.json.jsonDefaults.setDiagnosticsOptions({
  // Problems are ours: validation by the agent's rules (plain words, exact json_path) and syntax
  // errors where the mistake is (Monaco marks a missing comma on the next line). Monaco keeps
  // completion, hover, folding and formatting from the schema.
  validate: false,
  allowComments: false,
  enableSchemaRequest: false,
  schemaValidation: 'ignore',
});

const CONFIG_SCHEMA_URI = 'inmemory://tributary/configuration.schema.json';

/** Gives the JSON language the configuration's schema, its descriptions and snippets in the console's language. */
function registerConfigSchema(): void {
  const options = monaco.json.jsonDefaults.diagnosticsOptions;
  const others = (options.schemas ?? []).filter((schema) => schema.uri !== CONFIG_SCHEMA_URI);
  const schema = editorSchema(Intl.supportedValuesOf('timeZone'));
  monaco.json.jsonDefaults.setDiagnosticsOptions({ ...options, schemas: [...others, { uri: CONFIG_SCHEMA_URI, fileMatch: ['configuration.json'], schema }] });
}

registerConfigSchema();
onLanguageChange(registerConfigSchema);

loader.config({ monaco });
// Leaving an editor mid-request cancels Monaco's pending work: no error for the operator to see.
quietMonacoCancellations(window);

export { monaco };
export type Monaco = typeof monaco;
