/** The sql receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { hostName, serverFields, sslFields, text } from '../../secret-fields.js';
import { sqlTemplate } from './template.js';
import { SqlReceiverSchema, SqlStreamSchema } from './schema.js';
import { sqlReceiverViolations } from './rules.js';

export const sqlReceiver = receiverDescriptor({
  protocol: 'sql',
  schema: SqlReceiverSchema,
  rules: (receiver, base) => sqlReceiverViolations(receiver, base),
  template: sqlTemplate,
  secrets: [
    {
      secret: 'password',
      target: 'the server',
      fields: [
        ...serverFields(),
        ...sslFields(),
        { name: 'database_type' },
        { name: 'database_name', read: (h) => text(h.database_name) },
        { name: 'instance_name', read: (h) => hostName(h.instance_name) },
      ],
    },
  ],
  docs: 'docs/sql.md',
  meta: {
    order: 1,
    name: 'SQL database',
    stream: {
      schema: SqlStreamSchema,
      template: {
        query: 'SELECT * FROM machine_data WHERE id > :id ORDER BY id',
        state_fields: [{ column_name: 'id', data_type: 'integer' }],
      },
    },
  },
});
