/** The sql receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { SqlReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';

export const receiver = {
  data_receiver_name: 'database',
  protocol: 'sql',
  poll_interval: 30,
  connections: [
    {
      host: prompt('database server name or IP address'),
      port: 5432,
      username: prompt('user name'),
      password: prompt('password'),
      database_type: 'postgresql',
      database_name: prompt('database name'),
      ssl: false,
    },
  ],
  streams: [
    {
      ...stream,
      query: 'SELECT * FROM machine_data WHERE id > :id ORDER BY id',
      state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 0 }],
    },
  ],
} as const satisfies z.input<typeof SqlReceiverSchema>;

export const sqlTemplate: ReceiverTemplate = {
  title: 'SQL',
  description: 'New rows of an MS SQL Server, PostgreSQL or MySQL table, read incrementally by id.',
  receiver,
};
