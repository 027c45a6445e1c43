/** The s7 receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { s7Template } from './template.js';
import { S7ReceiverSchema } from './schema.js';
import { s7ReceiverViolations } from './rules.js';

export const s7Receiver = receiverDescriptor({
  protocol: 's7',
  schema: S7ReceiverSchema,
  rules: (receiver, base) => s7ReceiverViolations(receiver, base),
  template: s7Template,
  docs: 'docs/s7.md',
});
