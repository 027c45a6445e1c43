/**
 * A throwaway parser type, written the way docs/architecture.md ("How to add a parser") says: its
 * schema, rules and template in one folder, registered by one line in shared/config/parsers/index.ts.
 * Files of "name=value" pairs, a line a record (the agent's reader: electron/testing/fixture-parser).
 */
import { z } from 'zod';
import { parserDescriptor } from '../../config/parsers/descriptor.js';
import { FilterStreamSchema } from '../../config/schema-parts.js';
import { prompt } from '../../config/template-parts.js';
import { error, say } from '../../config/violations.js';

export const FixtureParserSchema = z
  .strictObject({
    parser_name: z.string().min(1, 'parser_name must not be empty').describe('Name that streams refer to.'),
    filter_stream: FilterStreamSchema.optional(),
    parser_type: z.literal('fixture'),
    options: z
      .strictObject({ separator: z.string().min(1).default('=').describe('Between a name and its value.') })
      .prefault({}),
  })
  .describe('A made-up parser of the registry test: "name=value" pairs separated by commas, a line a record.');

export const fixtureParser = parserDescriptor({
  type: 'fixture',
  schema: FixtureParserSchema,
  reads: 'document',
  rules: (parser, base) =>
    /^[\p{L}\p{N},]/u.test(parser.options.separator)
      ? [error([...base, 'options', 'separator'], say('fixture.would_split_names_sign', '"{separator}" would split names; use a sign such as "=".', { separator: parser.options.separator }))]
      : [],
  template: {
    parser_name: 'fixture_parser',
    parser_type: 'fixture',
    filter_stream: ['*'],
    options: { separator: prompt('sign between a name and its value, e.g. =') },
  },
});
