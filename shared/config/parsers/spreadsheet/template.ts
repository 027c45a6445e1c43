/** A starting point for a spreadsheet parser: the localfile and smb receivers' templates read CSV files with it. */
import { prompt } from '../../template-parts.js';

export const SPREADSHEET_PARSER_TEMPLATE = {
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
