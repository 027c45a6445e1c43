/**
 * Rules for the file filters of file receivers: exactly one of file_filter / path_filter per
 * stream (as in the product family), every pattern compilable (an invalid glob or regular
 * expression is an error here, never an agent that fails at start), and a hint for globs written
 * like regular expressions.
 */
import { compileFileFilter, regexLookingGlob } from './file-filters/index.js';
import { type JsonPath, type Violation, error, warning, say } from './violations.js';

interface FileStream {
  file_filter?: readonly string[];
  path_filter?: readonly string[];
}

export function fileFilterViolations(streams: readonly FileStream[], base: JsonPath): Violation[] {
  const out: Violation[] = [];
  streams.forEach((stream, j) => {
    const at: JsonPath = [...base, 'streams', j];
    if (stream.file_filter !== undefined && stream.path_filter !== undefined)
      out.push(error([...at, 'path_filter'], say('file_filter.either_file_filter_file_names', 'Use either file_filter (file names) or path_filter (paths below the folder), not both.')));
    else if (stream.file_filter === undefined && stream.path_filter === undefined)
      out.push(error(at, say('file_filter.stream_needs_file_filter_patterns', 'The stream needs file_filter (patterns of file names, e.g. ["*.csv"]) or path_filter (patterns of paths below the folder).')));
    for (const key of ['file_filter', 'path_filter'] as const) {
      stream[key]?.forEach((pattern, k) => {
        const compiled = compileFileFilter(pattern, { path: key === 'path_filter', ignoreCase: false });
        if (compiled.problem !== undefined) out.push(error([...at, key, k], say('file_filter.pattern_invalid', '{text}', { text: compiled.problem, pattern })));
        else {
          const hint = regexLookingGlob(pattern);
          if (hint) out.push(warning([...at, key, k], say('file_filter.looks_like_regex', '{text}', { text: hint, pattern })));
        }
      });
    }
  });
  return out;
}
