/**
 * The field descriptions of a JSON Schema the editors give Monaco (hover, completion): the English
 * of the shared zod schemas' .describe(), written in the console's language from its table
 * (renderer/src/i18n/field-descriptions/, docs/decisions/0073). Compiles without a DOM: the editor
 * schemas are also built headless.
 */
import { currentLanguage } from '../i18n/language.js';

type Schema = Record<string, unknown>;

/** Keywords whose value maps names to schemas (a field may be called `default` or `description`). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not schema: their `description` keys are not descriptions. */
const DATA = new Set(['default', 'examples', 'const', 'enum', 'body']);
/** The keywords Monaco shows as a field's description. */
const TEXTS = ['description', 'markdownDescription'];

/** Calls `visit` with each schema node under `node` (maps of named schemas and data skipped). */
function eachSchema(node: unknown, visit: (schema: Schema) => void): void {
  if (Array.isArray(node)) return node.forEach((item) => eachSchema(item, visit));
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  visit(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (DATA.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') Object.values(value).forEach((child) => eachSchema(child, visit));
    else eachSchema(value, visit);
  }
}

/** Every distinct description text of `schema`, sorted: what a language's table translates. */
export function schemaDescriptions(schema: unknown): string[] {
  const found = new Set<string>();
  eachSchema(schema, (node) => {
    for (const key of TEXTS) if (typeof node[key] === 'string') found.add(node[key]);
  });
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `schema` (changed in place and returned) with each description in the console's language now; a
 * text the language's table lacks stays English.
 */
export function describedInConsoleLanguage<T>(schema: T, table: Readonly<Record<string, string>> = currentLanguage().fieldDescriptions): T {
  eachSchema(schema, (node) => {
    for (const key of TEXTS) {
      const english = node[key];
      if (typeof english === 'string' && table[english]) node[key] = table[english];
    }
  });
  return schema;
}
