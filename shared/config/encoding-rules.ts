/** The message for an encoding name Tributary cannot decode (file_encoding, options.parse.encoding). */
import { ENCODINGS, lookupEncoding, supportedEncodingNames } from './encodings.js';
import { closest } from './violations.js';

const ALL_ENCODING_NAMES = ENCODINGS.flatMap((info) => [info.codec, ...info.aliases]);

/** An unknown encoding name: the supported ones, and the closest when it looks like a typo. */
export function encodingProblem(name: string): string | undefined {
  if (lookupEncoding(name)) return undefined;
  const hint = closest(name.toLowerCase().replace(/[\s-]+/g, '_'), ALL_ENCODING_NAMES);
  return `"${name}" is not a supported encoding.${hint ? ` Did you mean "${hint}"?` : ''} Supported (Python codec names; aliases such as windows-1252, latin-1, utf-8-sig or sjis work too): ${supportedEncodingNames().join(', ')}.`;
}
