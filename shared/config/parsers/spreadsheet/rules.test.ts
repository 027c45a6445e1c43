import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../testing/config-fixtures.js';
import { validateConfiguration } from '../../validate.js';
import type { JsonPath } from '../../violations.js';

const withParse = (parse: Record<string, unknown>, parser: Record<string, unknown> = {}) => {
  const doc = specExampleConfiguration() as any;
  Object.assign(doc.data_receiver[0].parsers[0], parser);
  // The example's time stamp column stays; its separator goes, so that each case sets its own.
  doc.data_receiver[0].parsers[0].options.parse = { parse_timestamps: doc.data_receiver[0].parsers[0].options.parse.parse_timestamps, ...parse };
  return doc;
};
const PARSE: JsonPath = ['data_receiver', 0, 'parsers', 0, 'options', 'parse'];
const PARSER: JsonPath = ['data_receiver', 0, 'parsers', 0];

describe('read_csv options in options.parse', () => {
  it('accepts every supported keyword with pandas values, without violations', () => {
    const doc = withParse({
      sep: ';', decimal: ',', thousands: '.', skiprows: [0, 2], skipfooter: 1, header: 0, names: ['time', 'temp', 'state'], usecols: ['time', 'temp'],
      na_values: { temp: ['---'] }, keep_default_na: true, quotechar: "'", comment: '#', encoding: 'cp1252', true_values: ['ja'], false_values: ['nein'],
      skip_blank_lines: false, dtype: { temp: 'float64', state: 'str' }, on_bad_lines: 'skip',
    });
    expect(validateConfiguration(doc).violations).toEqual([]);
    expect(validateConfiguration(withParse({ header: null, skiprows: 3, dtype: 'str', na_values: 'n/a' })).violations).toEqual([]);
  });

  it('warns about each read_csv keyword it ignores, naming it, and saves', () => {
    const { violations, config } = validateConfiguration(withParse({ nrows: 100, index_col: 0, low_memory: false }));
    expect(config).toBeDefined();
    expect(violations.map((v) => [v.json_path.at(-1), v.level])).toEqual([
      ['index_col', 'warning'],
      ['low_memory', 'warning'],
      ['nrows', 'warning'],
    ]);
    expect(violations[2]!.description).toMatch(/^nrows is a pandas read_csv option that Tributary does not support; it is ignored \(files are read to the end/);
  });

  it.each([
    ['a misspelt option', { seperator: ';' }, [...PARSE, 'seperator'], /Unknown field "seperator"\. Did you mean "separator"\?/],
    ['a misspelt read_csv keyword', { skip_rows: 2 }, [...PARSE, 'skip_rows'], /Did you mean "skiprows"\?/],
    ['separators that disagree', { sep: ';', delimiter: '\t' }, [...PARSE, 'delimiter'], /disagrees with sep ";"/],
    ['a regular-expression separator', { sep: '\\s+' }, [...PARSE, 'sep'], /regular expression; Tributary reads separators literally/],
    ['decimal equal to the separator', { sep: ',', decimal: ',' }, [...PARSE, 'decimal'], /also the separator/],
    ['thousands equal to decimal', { sep: ';', decimal: ',', thousands: ',' }, [...PARSE, 'thousands'], /also decimal/],
    ['decimal of two characters', { decimal: ',,' }, [...PARSE, 'decimal'], /at most 1 character/],
    ['a non-ASCII quotechar', { quotechar: '«' }, [...PARSE, 'quotechar'], /printable ASCII/],
    ['a header of several rows', { header: [0, 1] }, [...PARSE, 'header'], /several rows are not supported/],
    ['names given twice', { names: ['a', 'a'] }, [...PARSE, 'names', 1], /given twice/],
    ['usecols mixed', { usecols: ['a', 1] }, [...PARSE, 'usecols'], /all by name or all by position/],
    ['usecols without the time column', { usecols: ['temp'] }, [...PARSE, 'usecols'], /"time" is not among usecols/],
    ['an unknown dtype', { dtype: { temp: 'flaot' } }, [...PARSE, 'dtype', 'temp'], /dtype "flaot" .*did you mean "float".*str, int, float or bool/],
    ['a datetime dtype', { dtype: 'datetime64[ns]' }, [...PARSE, 'dtype'], /parse_timestamps/],
    ['an unknown encoding alias', { encoding: 'latin-7' }, [...PARSE, 'encoding'], /not a supported encoding/],
    ['on_bad_lines against bad_lines_action', { on_bad_lines: 'skip', bad_lines_action: 'error' }, [...PARSE, 'on_bad_lines'], /disagrees/],
    ['skiprows negative', { skiprows: -1 }, [...PARSE, 'skiprows'], /./],
  ])('%s → error at its json_path', (_name, parse, path, says) => {
    const hit = validateConfiguration(withParse(parse)).violations.find((v) => JSON.stringify(v.json_path) === JSON.stringify(path) && v.level === 'error');
    expect(hit, JSON.stringify(validateConfiguration(withParse(parse)).violations)).toBeDefined();
    expect(hit!.description).toMatch(says);
  });

  it('encoding in options.parse must agree with a file_encoding that is set', () => {
    expect(validateConfiguration(withParse({ encoding: 'cp1252' }, { file_encoding: 'windows-1252' })).violations).toEqual([]);
    expect(validateConfiguration(withParse({ encoding: 'cp1252' }, { file_encoding: 'shift_jis' })).violations).toEqual([
      expect.objectContaining({ json_path: [...PARSE, 'encoding'], level: 'error', description: expect.stringMatching(/disagrees with file_encoding "shift_jis"/) }),
    ]);
  });

  it('the csv parser type with a top-level separator and file_encoding', () => {
    const doc = withParse({}, { parser_type: 'csv', separator: '|', file_encoding: 'utf-16' });
    expect(validateConfiguration(doc).violations).toEqual([]);
    const clash = withParse({ separator: ';' }, { parser_type: 'csv', separator: '|' });
    expect(validateConfiguration(clash).violations).toContainEqual(expect.objectContaining({ json_path: [...PARSE, 'separator'], level: 'error' }));
    const onSpreadsheet = withParse({}, { separator: '|' });
    expect(validateConfiguration(onSpreadsheet).violations).toContainEqual(
      expect.objectContaining({ json_path: [...PARSER, 'separator'], level: 'error', description: expect.stringMatching(/Unknown field "separator"/) }),
    );
  });
});
