/**
 * The JSON Schema the KPI editor gives Monaco: the one generated from the shared zod schemas, its
 * descriptions in the console's language (docs/decisions/0073). Compiles without a DOM (tested headless).
 */
import { kpiJsonSchema } from '../../../../shared/kpi/schema.js';
import { describedInConsoleLanguage } from '../../monaco/schema-descriptions.js';

export const kpiEditorSchema = (): Record<string, unknown> => describedInConsoleLanguage(kpiJsonSchema());
