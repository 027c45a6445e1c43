/**
 * The KPI editor's Monaco setup: its models get the KPI JSON Schema (generated from the shared zod
 * schemas) for completion and hover, its descriptions in the console's language (again when it
 * changes); problems come from our validation, as in the config editor.
 */
import { onLanguageChange } from '../../i18n/language.js';
import { kpiEditorSchema } from './kpi-editor-schema.js';
import { monaco } from '../../monaco/setup.js';

const KPI_SCHEMA_URI = 'inmemory://tributary/kpi.schema.json';

/** A model per opened draft, so that opening another KPI starts from its own text. */
export const kpiModelUri = (key: number) => `inmemory://tributary/kpi/draft-${key}.kpi.json`;

/** Gives the JSON language the KPI schema, its descriptions in the console's language. */
function registerKpiSchema(): void {
  const options = monaco.json.jsonDefaults.diagnosticsOptions;
  monaco.json.jsonDefaults.setDiagnosticsOptions({
    ...options,
    schemas: [...(options.schemas ?? []).filter((schema) => schema.uri !== KPI_SCHEMA_URI), { uri: KPI_SCHEMA_URI, fileMatch: ['*.kpi.json'], schema: kpiEditorSchema() }],
  });
}

registerKpiSchema();
onLanguageChange(registerKpiSchema);

export { monaco };
