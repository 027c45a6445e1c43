/** A starting point for an xml parser (GET /v1/config/templates, the editor's snippets). */
export const XML_PARSER_TEMPLATE = {
  parser_name: 'xml_parser',
  parser_type: 'xml',
  filter_stream: ['*'],
  options: {
    xpath: '//<fill in: name of the record element, e.g. Measurement>',
    localtz: '<fill in: time zone of the machine clock, e.g. Europe/Berlin>',
    parse_timestamps: [{ field_name: '<fill in: attribute or child element with the time stamp>' }],
  },
};
