/**
 * Fields every whole-document parser (excel, json, xml) shares: its name, the streams it serves,
 * and the time options of the spreadsheet parser (`localtz`, `parse_timestamps`), at the top of
 * `options` as in pandas' read_excel / json_normalize / read_xml calls the product family wrote.
 */
import { z } from 'zod';
import { FilterStreamSchema, timeZoneName } from '../schema-parts.js';

export const DocumentTimestampSchema = z.strictObject({
  field_name: z.string().min(1, 'field_name must not be empty').describe('Field holding the time stamp (a flattened name such as machine.time for JSON).'),
  format: z
    .string()
    .min(1, 'format must not be empty')
    .optional()
    .describe("Python strptime format of text time stamps, e.g. '%Y-%m-%d %H:%M:%S'. Without it the format is guessed; Excel date cells need none."),
});

export const documentParserFields = {
  parser_name: z.string().min(1, 'parser_name must not be empty').describe('Name that streams refer to.'),
  filter_stream: FilterStreamSchema.optional(),
};

export const documentTimeOptions = {
  localtz: timeZoneName('IANA time zone of local times in the files (and of Excel date cells), e.g. Europe/Berlin. Default UTC.').optional(),
  parse_timestamps: z
    .array(DocumentTimestampSchema)
    .optional()
    .describe('Fields read as time stamps: local times in localtz become UTC; the first one gives the record its timestamp.'),
};

/** What the reading code needs of any document parser's options. */
export interface DocumentTimeOptions {
  localtz?: string;
  parse_timestamps?: { field_name: string; format?: string }[];
}
