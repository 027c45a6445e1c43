/**
 * A throwaway receiver protocol, written the way docs/architecture.md ("How to add a receiver")
 * says: its schema, rules and template in one folder, registered by one line in
 * shared/config/receivers/index.ts. The registry test adds that line and nothing else.
 */
import { z } from 'zod';
import { receiverDescriptor } from '../../config/receivers/descriptor.js';
import { receiverCommon } from '../../config/receiver-parts.js';
import { streamIdentity } from '../../config/schema-parts.js';
import { prompt } from '../../config/template-parts.js';
import { warning, say } from '../../config/violations.js';

const FixtureStreamSchema = z.strictObject({ ...streamIdentity, register: z.number().int().min(0) });

export const FixtureReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('fixture'),
    connections: z
      .array(z.strictObject({ host: z.string().min(1) }))
      .min(1, 'a fixture receiver needs at least 1 connection'),
    streams: z.array(FixtureStreamSchema).min(1),
  })
  .describe('A made-up protocol of the registry test.');

export const fixtureReceiver = receiverDescriptor({
  protocol: 'fixture',
  schema: FixtureReceiverSchema,
  rules: (receiver, base) =>
    receiver.streams.flatMap((s, j) =>
      s.register > 100
        ? [warning([...base, 'streams', j, 'register'], say('fixture.register_beyond_fixture', 'Register {register} is beyond the fixture\'s 100.', { register: s.register }))]
        : [],
    ),
  template: {
    title: 'Fixture',
    description: 'Registers of a made-up device.',
    receiver: {
      data_receiver_name: 'fixture_device',
      protocol: 'fixture',
      connections: [{ host: prompt('device address') }],
    },
  },
  meta: { order: 9, name: 'Fixture device', stream: { schema: FixtureStreamSchema, template: { register: 1 } } },
});
