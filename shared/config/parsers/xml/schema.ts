import { z } from 'zod';
import { documentParserFields, documentTimeOptions } from '../document-fields.js';

/** `parser_type: "xml"`: the elements an XPath selects, each one record, as pandas read_xml reads them. */
export const XmlParserSchema = z
  .strictObject({
    ...documentParserFields,
    parser_type: z.literal('xml'),
    options: z
      .strictObject({
        xpath: z
          .string()
          .min(1)
          .optional()
          .describe('Elements that are records: "//Tag" (anywhere), "/a/b/c" (from the root), "//a/b", "*" for any name, prefixes from namespaces. Default "./*" (the root\'s children).'),
        namespaces: z
          .record(z.string().min(1), z.string().min(1))
          .optional()
          .describe('Prefixes used in xpath and their namespace URIs, e.g. {"doc": "https://example.com/ns"}. Names without a prefix match any namespace.'),
        ...documentTimeOptions,
      })
      .optional(),
  })
  .describe('Reads XML files into records: the attributes and child element texts of each element xpath selects, numbers as numbers. A file is read whole once it has not changed for 10 s (3 poll intervals when longer).');
