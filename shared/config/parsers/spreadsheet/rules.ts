/**
 * Rules of spreadsheet / csv parsers that the schema cannot express: the encoding name, and the
 * pandas read_csv options (csv-options.ts) — aliases that must agree, characters that must differ,
 * the forms Tributary cannot read, and a warning for each read_csv keyword it ignores.
 */
import { DTYPE_NAMES, UNSUPPORTED_READ_CSV_KEYWORDS, dtypeKind } from '../../csv-options.js';
import { lookupEncoding } from '../../encodings.js';
import { encodingProblem } from '../../encoding-rules.js';
import type { AgentMessage } from '../../message.js';
import { type JsonPath, type Violation, closest, error, warning, say } from '../../violations.js';
import type { TextParser } from '../csv/schema.js';

/** Why some read_csv keywords are not honoured, where a reason helps more than "ignored". */
const IGNORED_BECAUSE: Partial<Record<(typeof UNSUPPORTED_READ_CSV_KEYWORDS)[number], string>> = {
  index_col: 'records have no index; the column stays a column',
  nrows: 'files are read to the end (and again as they grow)',
  engine: 'Tributary has one parser',
  converters: 'Python functions cannot run here; use dtype or a transform',
  date_parser: 'Python functions cannot run here; use parse_timestamps with a format',
  date_format: 'use parse_timestamps with a format',
  compression: 'files are read as plain text',
  quoting: 'quotes are always read as in pandas\' default (QUOTE_MINIMAL)',
  escapechar: 'quotes inside quoted cells are written doubled ("")',
  delim_whitespace: 'use a literal separator such as "\\t"',
  error_bad_lines: 'use bad_lines_action (or on_bad_lines)',
  warn_bad_lines: 'use bad_lines_action (or on_bad_lines)',
  skipinitialspace: 'spaces after a separator stay part of text cells (numbers are read without them)',
  na_filter: 'use keep_default_na and na_values',
};

/** A separator longer than one character that pandas would read as a regular expression. */
const REGEX_SEPARATOR = /[\\^$.|?*+()[\]{}]/;

/** The rules of a spreadsheet or csv parser (both read delimited text line by line). */
export function textParserViolations(parser: TextParser, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  const problem = encodingProblem(parser.file_encoding);
  if (problem) out.push(error([...base, 'file_encoding'], problem));
  const parse = parser.options?.parse;
  if (!parse) return out;
  const at = (...path: (string | number)[]): JsonPath => [...base, 'options', 'parse', ...path];

  for (const keyword of UNSUPPORTED_READ_CSV_KEYWORDS)
    if (parse[keyword] !== undefined) out.push(warning(at(keyword), IGNORED_BECAUSE[keyword] ? say('spreadsheet.read_csv_option_ignored_because', '{keyword} is a pandas read_csv option that Tributary does not support; it is ignored ({because}).', { keyword, because: IGNORED_BECAUSE[keyword] }) : say('spreadsheet.read_csv_option_ignored', '{keyword} is a pandas read_csv option that Tributary does not support; it is ignored.', { keyword })));

  // One separator, however it is spelled.
  const separators: [JsonPath, string][] = [];
  if ('separator' in parser && parser.separator !== undefined) separators.push([[...base, 'separator'], parser.separator]);
  for (const key of ['separator', 'sep', 'delimiter'] as const) if (parse[key] !== undefined) separators.push([at(key), parse[key]!]);
  const separator = separators[0]?.[1] ?? ',';
  for (const [path, value] of separators.slice(1))
    if (value !== separator) out.push(error(path, say('spreadsheet.disagrees_keep', '{path} "{value}" disagrees with {at} "{separator}"; keep one.', { path: String(path[path.length - 1]), value, at: String(separators[0]![0].at(-1)), separator })));
  for (const [path, value] of separators)
    if (value.length > 1 && value !== '\\t' && REGEX_SEPARATOR.test(value))
      out.push(error(path, say('spreadsheet.pandas_reads_separator_more', '"{value}": pandas reads a separator of more than one character as a regular expression; Tributary reads separators literally. Use one character such as ";" or "\\t".', { value })));

  if (parse.encoding !== undefined) {
    const aliasProblem = encodingProblem(parse.encoding);
    if (aliasProblem) out.push(error(at('encoding'), aliasProblem));
    else if (lookupEncoding(parser.file_encoding)?.codec !== 'utf_8' && lookupEncoding(parser.file_encoding)?.codec !== lookupEncoding(parse.encoding)?.codec)
      out.push(error(at('encoding'), say('spreadsheet.encoding_disagrees_file_encoding_keep', 'encoding "{encoding}" disagrees with file_encoding "{file_encoding}"; keep one.', { encoding: parse.encoding, file_encoding: parser.file_encoding })));
  }
  if (parse.on_bad_lines !== undefined && parse.bad_lines_action !== undefined && parse.on_bad_lines !== parse.bad_lines_action)
    out.push(error(at('on_bad_lines'), say('spreadsheet.on_bad_lines_disagrees_bad_lines_action_keep', 'on_bad_lines "{on_bad_lines}" disagrees with bad_lines_action "{bad_lines_action}"; keep one.', { on_bad_lines: parse.on_bad_lines, bad_lines_action: parse.bad_lines_action })));

  const characters: [string, string | null | undefined][] = [['decimal', parse.decimal], ['thousands', parse.thousands], ['quotechar', parse.quotechar], ['comment', parse.comment]];
  characters.forEach(([key, value], i) => {
    if (value === undefined || value === null) return;
    // Quotes and comments are found in the file's bytes: one ASCII character. Decimal marks and
    // thousands separators are read in the text: any character but a line break (French exports
    // group thousands with a no-break space).
    const ascii = key === 'quotechar' || key === 'comment';
    if (value === '\n' || value === '\r' || (ascii && (value.charCodeAt(0) > 0x7e || value.charCodeAt(0) < 0x20)))
      out.push(error(at(key), ascii ? say('spreadsheet.character_must_be_ascii', '{key} must be a printable ASCII character.', { key }) : say('spreadsheet.character_not_line_break', '{key} must be a character other than a line break.', { key })));
    else if (separator.length === 1 && value === separator) out.push(error(at(key), say('spreadsheet.also_separator_they_must', '{key} "{value}" is also the separator; they must differ.', { key, value })));
    else {
      const same = characters.slice(0, i).find(([, other]) => other === value);
      if (same) out.push(error(at(key), say('spreadsheet.also_they_must_differ', '{key} "{value}" is also {same}; they must differ.', { key, value, same: same[0] })));
    }
  });

  if (Array.isArray(parse.header)) out.push(error(at('header'), say('spreadsheet.headers_several_rows_supported', 'Headers of several rows are not supported: give the number of one header row (and names to name the columns yourself).')));
  if (parse.names) {
    const seen = new Set<string>();
    parse.names.forEach((name, k) => {
      if (seen.has(String(name))) out.push(error(at('names', k), say('spreadsheet.name_given_twice_column', 'The name "{name}" is given twice; column names must be unique.', { name })));
      seen.add(String(name));
    });
  }
  if (parse.usecols) {
    const byPosition = parse.usecols.filter((u) => typeof u === 'number').length;
    if (byPosition > 0 && byPosition < parse.usecols.length) out.push(error(at('usecols'), say('spreadsheet.usecols_must_name_columns', 'usecols must name columns either all by name or all by position (0, 1, …), not both.')));
    else if (byPosition === 0) {
      const kept = parse.usecols.map(String);
      const times = [...(parse.parse_timestamps ?? []).map((t) => t.field_name), ...(parse.parse_dates ?? [])];
      const dropped = times.find((name) => !kept.includes(name) && !(parse.names ?? []).map(String).includes(name));
      if (dropped) out.push(error(at('usecols'), say('spreadsheet.time_stamp_column_among', 'The time stamp column "{dropped}" is not among usecols; add it.', { dropped })));
    }
  }
  const dtypes: [JsonPath, string][] = typeof parse.dtype === 'string' ? [[at('dtype'), parse.dtype]] : Object.entries(parse.dtype ?? {}).map(([column, name]) => [at('dtype', column), name]);
  for (const [path, name] of dtypes)
    if (dtypeKind(name) === undefined) {
      const hint = closest(name, Object.values(DTYPE_NAMES).flat());
      out.push(error(path, dtypeUnknown(name, hint)));
    }
  return out;
}

function dtypeUnknown(name: string, hint: string | undefined): AgentMessage {
  const times = /date|time/i.test(name);
  if (hint && times) return say('spreadsheet.dtype_unknown_hint_times', 'dtype "{name}" is not one Tributary reads (did you mean "{hint}"?): use str, int, float or bool; read times with parse_timestamps.', { name, hint });
  if (hint) return say('spreadsheet.dtype_unknown_hint', 'dtype "{name}" is not one Tributary reads (did you mean "{hint}"?): use str, int, float or bool.', { name, hint });
  if (times) return say('spreadsheet.dtype_unknown_times', 'dtype "{name}" is not one Tributary reads: use str, int, float or bool; read times with parse_timestamps.', { name });
  return say('spreadsheet.dtype_unknown', 'dtype "{name}" is not one Tributary reads: use str, int, float or bool.', { name });
}
