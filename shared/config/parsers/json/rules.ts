/** Rules of the json parser that its schema cannot express. */
import type { z } from 'zod';
import { type JsonPath, type Violation, error, say } from '../../violations.js';
import type { JsonParserSchema } from './schema.js';

export function jsonParserViolations(parser: z.infer<typeof JsonParserSchema>, base: JsonPath): Violation[] {
  if (parser.options?.lines && parser.options.record_path !== undefined)
    return [error([...base, 'options', 'record_path'], say('json.record_path_json_document_file', 'record_path is for one JSON document a file; with lines true every line is a record.'))];
  return [];
}
