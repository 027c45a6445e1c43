/**
 * Rules of spreadsheet / csv parsers that the schema cannot express: the encoding name, the time
 * zone and time formats, and the pandas read_csv options (csv-options.ts).
 */
import { ENCODINGS, lookupEncoding, supportedEncodingNames } from './encodings.js';
import type { Parser } from './schema.js';
import { type JsonPath, type Violation, closest, error } from './violations.js';

const ALL_ENCODING_NAMES = ENCODINGS.flatMap((info) => [info.codec, ...info.aliases]);

/** An unknown encoding name: the supported ones, and the closest when it looks like a typo. */
export function encodingProblem(name: string): string | undefined {
  if (lookupEncoding(name)) return undefined;
  const hint = closest(name.toLowerCase().replace(/[\s-]+/g, '_'), ALL_ENCODING_NAMES);
  return `"${name}" is not a supported encoding.${hint ? ` Did you mean "${hint}"?` : ''} Supported (Python codec names; aliases such as windows-1252, latin-1, utf-8-sig or sjis work too): ${supportedEncodingNames().join(', ')}.`;
}

export function parserViolations(parser: Parser, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const problem = encodingProblem(parser.file_encoding);
  if (problem) out.push(error([...base, 'file_encoding'], problem));
  return out;
}
