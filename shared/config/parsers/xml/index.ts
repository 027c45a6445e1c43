/** The xml parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { xmlParserViolations } from './rules.js';
import { XmlParserSchema } from './schema.js';
import { XML_PARSER_TEMPLATE } from './template.js';

export const xmlParser = parserDescriptor({
  type: 'xml',
  schema: XmlParserSchema,
  reads: 'document',
  rules: xmlParserViolations,
  template: XML_PARSER_TEMPLATE,
  docs: 'docs/compatibility.md',
});
