/** The message for an encoding name Tributary cannot decode (file_encoding, options.parse.encoding). */
import { ENCODINGS, lookupEncoding, supportedEncodingNames } from './encodings.js';
import { type AgentMessage, say } from './message.js';
import { closest } from './violations.js';

const ALL_ENCODING_NAMES = ENCODINGS.flatMap((info) => [info.codec, ...info.aliases]);

/** An unknown encoding name: the supported ones, and the closest when it looks like a typo. */
export function encodingProblem(name: string): AgentMessage | undefined {
  if (lookupEncoding(name)) return undefined;
  const hint = closest(name.toLowerCase().replace(/[\s-]+/g, '_'), ALL_ENCODING_NAMES);
  const supported = supportedEncodingNames().join(', ');
  if (hint) return say('encoding.unknown_hint', '"{name}" is not a supported encoding. Did you mean "{hint}"? Supported (Python codec names; aliases such as windows-1252, latin-1, utf-8-sig or sjis work too): {supported}.', { name, hint, supported });
  return say('encoding.unknown', '"{name}" is not a supported encoding. Supported (Python codec names; aliases such as windows-1252, latin-1, utf-8-sig or sjis work too): {supported}.', { name, supported });
}
