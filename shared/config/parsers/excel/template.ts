/** A starting point for an excel parser (GET /v1/config/templates, the editor's snippets). */
export const EXCEL_PARSER_TEMPLATE = {
  parser_name: 'excel_parser',
  parser_type: 'excel',
  filter_stream: ['*'],
  options: {
    sheet_name: 0,
    header: 0,
    localtz: '<fill in: time zone of the machine clock, e.g. Europe/Berlin>',
    parse_timestamps: [{ field_name: '<fill in: column with the time stamp>' }],
  },
};
