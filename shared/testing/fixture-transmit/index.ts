/**
 * A throwaway transmit type, written the way docs/architecture.md ("How to add a transmit") says:
 * its schema, rules, template and secret in one folder, registered by one line in
 * shared/config/transmits/index.ts. The registry test adds that line and nothing else.
 */
import { z } from 'zod';
import { transmitDescriptor } from '../../config/transmits/descriptor.js';
import { FilterStreamSchema, maxBufferMb } from '../../config/schema-parts.js';
import { hostName } from '../../config/secret-fields.js';
import { prompt } from '../../config/template-parts.js';
import { warning, say } from '../../config/violations.js';

export const FixtureTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('pigeon'),
    filter_stream: FilterStreamSchema.default(['*']),
    loft: z.string().min(1).describe('Where the pigeons fly to.'),
    password: z.string().min(1).optional(),
    birds: z.number().int().min(1).default(3),
    max_buffer_mb: maxBufferMb,
  })
  .describe('A made-up transmit of the registry test.');

export const fixtureTransmit = transmitDescriptor({
  type: 'pigeon',
  schema: FixtureTransmitSchema,
  rules: (transmit, { base }) =>
    transmit.birds > 50
      ? [warning([...base, 'birds'], say('fixture.birds_more_loft_holds', '{birds} birds are more than one loft holds (50).', { birds: transmit.birds }))]
      : [],
  templates: {
    pigeon: {
      transmit: { transmit_name: 'pigeons', transmit_type: 'pigeon', loft: prompt('loft address') },
      snippet: 'carrier pigeon',
    },
  },
  secrets: [{ secret: 'password', target: 'the loft', fields: [{ name: 'loft', read: (h) => hostName(h.loft) }] }],
  does: { verb: 'sends with', what: 'carrier pigeons' },
});
