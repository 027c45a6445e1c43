/** The json parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { jsonParserViolations } from './rules.js';
import { JsonParserSchema } from './schema.js';
import { JSON_PARSER_TEMPLATE } from './template.js';

export const jsonParser = parserDescriptor({
  type: 'json',
  schema: JsonParserSchema,
  reads: 'document',
  rules: jsonParserViolations,
  template: JSON_PARSER_TEMPLATE,
  docs: 'docs/compatibility.md',
});
