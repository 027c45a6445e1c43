/** A starting point for a json parser (GET /v1/config/templates, the editor's snippets). */
export const JSON_PARSER_TEMPLATE = {
  parser_name: 'json_parser',
  parser_type: 'json',
  filter_stream: ['*'],
  options: {
    lines: true,
    localtz: '<fill in: time zone of the machine clock, e.g. Europe/Berlin>',
    parse_timestamps: [{ field_name: '<fill in: field with the time stamp, e.g. machine.time>', format: '%Y-%m-%dT%H:%M:%S' }],
  },
};
