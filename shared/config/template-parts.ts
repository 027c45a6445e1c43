/**
 * The pieces the templates share (templates.ts and each protocol's receivers/<protocol>/template.ts).
 * Kept apart from templates.ts so a protocol folder can use them without an import circle.
 */

/** Prefix of the prompt texts in templates: a value still starting with it was never filled in. */
export const TEMPLATE_PROMPT_PREFIX = '<fill in: ';

export const prompt = (what: string) => `${TEMPLATE_PROMPT_PREFIX}${what}>`;

export const csvParser = {
  parser_name: 'csv_parser',
  parser_type: 'spreadsheet' as const,
  filter_stream: ['*'],
  file_format: 'csv' as const,
  // A Python codec name: cp1252 for most German/French HMIs, shift_jis, gbk, utf-16 … (docs/compatibility.md).
  file_encoding: 'utf-8',
  options: {
    // No default zone: times in a machine's files are local times, and UTC would be silently wrong.
    localtz: prompt('time zone of the machine clock, e.g. Europe/Berlin'),
    parse: {
      separator: ',',
      header: 0,
      parse_timestamps: [{ field_name: prompt('column with the time stamp'), format: '%Y-%m-%d %H:%M:%S' }],
      bad_lines_action: 'warn' as const,
    },
  },
};

export const stream = { asset: prompt('machine name'), stream_type: prompt('kind of data, e.g. cycle') };
