/**
 * File filters of file receivers (`file_filter`, `path_filter`): globs by default, regular
 * expressions when written `regex:<expression>`. Both compile to automata matched in linear time
 * (automaton.ts), so no pattern and no file name can freeze the agent; a pattern that cannot be
 * compiled is a violation at its json_path (never an agent that fails at start). Pure: the same
 * code validates in the console and matches in the agent.
 */
import { Automaton, type PatternNode, PatternTooComplex } from './automaton.js';
import { PatternSyntaxError, parseGlob } from './glob-pattern.js';
import { parseRegex } from './regex-pattern.js';

/** A pattern starting with this is a regular expression; anything else is a glob. */
export const REGEX_PREFIX = 'regex:';
/** Longer patterns are refused: nobody writes them, and each costs matching time per file. */
export const MAX_PATTERN_LENGTH = 1000;

export interface FileFilter {
  readonly source: string;
  readonly kind: 'glob' | 'regex';
  /** Matched against the path relative to the connection's folder ("/" separated), else the file name. */
  readonly againstPath: boolean;
  /** True when the file at `relativePath` (with "/" separators) matches. */
  matches(relativePath: string): boolean;
}

export interface FilterOptions {
  /** A path_filter entry: always matched against the relative path. */
  path: boolean;
  /** Windows shares and Windows folders: case does not matter. */
  ignoreCase: boolean;
}

export type CompiledFilter = { filter: FileFilter; problem?: undefined } | { filter?: undefined; problem: string };

/** Compiles one file_filter / path_filter entry, or says in words why it cannot be used. */
export function compileFileFilter(source: string, options: FilterOptions): CompiledFilter {
  const kind = source.startsWith(REGEX_PREFIX) ? 'regex' : 'glob';
  const body = kind === 'regex' ? source.slice(REGEX_PREFIX.length) : source;
  if (source.length > MAX_PATTERN_LENGTH) return { problem: `The pattern is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed.` };
  if (body === '') return { problem: kind === 'regex' ? `"${source}" has no expression after "${REGEX_PREFIX}".` : 'A pattern must not be empty.' };
  let node: PatternNode;
  let ignoreCase = options.ignoreCase;
  let automaton: Automaton;
  try {
    if (kind === 'regex') {
      const parsed = parseRegex(body);
      node = parsed.node;
      ignoreCase ||= parsed.ignoreCase;
    } else node = parseGlob(body);
    automaton = new Automaton(node, ignoreCase);
  } catch (cause) {
    if (cause instanceof PatternTooComplex) return { problem: `"${source}" is too complex to match (${cause.message}); simplify it.` };
    if (cause instanceof PatternSyntaxError) return { problem: `"${source}" is not a valid ${kind === 'regex' ? 'regular expression' : 'glob'}: ${cause.message}.` };
    throw cause;
  }
  const againstPath = options.path || body.includes('/');
  const byName = (kind === 'glob' && !againstPath && starsOnly(body, ignoreCase)) || ((name: string) => automaton.matches(name));
  return {
    filter: {
      source,
      kind,
      againstPath,
      matches: (relativePath) => (againstPath ? automaton.matches(relativePath) : byName(relativePath.slice(relativePath.lastIndexOf('/') + 1))),
    },
  };
}

/**
 * The globs plants write most (`*.csv`, `press_*_2026*.csv`: text and single `*`, matched against
 * a name) without the automaton: the name must start with the first piece and end with the last,
 * and each piece between is taken where it first occurs (leftmost leaves the most room for the
 * rest, so this finds a match whenever there is one). Linear in the name's length too, and ~10×
 * faster than the automaton (bench/file-filters.mjs). Undefined for any other glob.
 */
function starsOnly(body: string, ignoreCase: boolean): ((name: string) => boolean) | undefined {
  if (/[?[]/.test(body) || body.includes('**')) return undefined;
  const fold = (text: string) => (ignoreCase ? text.toLowerCase() : text);
  const pieces = fold(body).split('*');
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (pieces.length === 1) return (name) => fold(name) === first;
  return (name) => {
    const text = fold(name);
    const stop = text.length - last.length;
    if (stop < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
    let at = first.length;
    for (let i = 1; i < pieces.length - 1; i += 1) {
      const found = text.indexOf(pieces[i]!, at);
      if (found < 0 || found + pieces[i]!.length > stop) return false;
      at = found + pieces[i]!.length;
    }
    return true;
  };
}

/**
 * A glob that reads like a regular expression (`.*`, `\.`, `\d`, a leading `^` or trailing `$`):
 * as a glob it matches almost nothing, which is easy to miss. Returns a hint, or undefined.
 */
export function regexLookingGlob(source: string): string | undefined {
  if (source.startsWith(REGEX_PREFIX)) return undefined;
  if (!/\.\*|\.\+|\\[.dws]|^\^|\$$/.test(source)) return undefined;
  return `"${source}" looks like a regular expression but is read as a glob (where "." and "\\" are themselves). Write "${REGEX_PREFIX}${source}" to use it as a regular expression, or a glob such as "*.csv".`;
}
