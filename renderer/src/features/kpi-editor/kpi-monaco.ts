/**
 * The KPI editor's Monaco setup: its models get the KPI JSON Schema (generated from the shared zod
 * schemas) for completion and hover; problems come from our validation, as in the config editor.
 */
import { kpiJsonSchema } from '../../../../shared/kpi/schema.js';
import { monaco } from '../../monaco/setup.js';

const KPI_SCHEMA_URI = 'inmemory://tributary/kpi.schema.json';

/** A model per opened draft, so that opening another KPI starts from its own text. */
export const kpiModelUri = (key: number) => `inmemory://tributary/kpi/draft-${key}.kpi.json`;

const options = monaco.json.jsonDefaults.diagnosticsOptions;
monaco.json.jsonDefaults.setDiagnosticsOptions({
  ...options,
  schemas: [...(options.schemas ?? []).filter((schema) => schema.uri !== KPI_SCHEMA_URI), { uri: KPI_SCHEMA_URI, fileMatch: ['*.kpi.json'], schema: kpiJsonSchema() }],
});

export { monaco };
