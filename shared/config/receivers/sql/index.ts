/** The sql receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { sqlTemplate } from './template.js';
import { SqlReceiverSchema } from './schema.js';
import { sqlReceiverViolations } from './rules.js';

export const sqlReceiver = receiverDescriptor({
  protocol: 'sql',
  schema: SqlReceiverSchema,
  rules: (receiver, base) => sqlReceiverViolations(receiver, base),
  template: sqlTemplate,
  docs: 'docs/sql.md',
});
