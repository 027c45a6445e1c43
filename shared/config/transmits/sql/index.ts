/** The sql transmit, as the configuration code sees it (registered in transmits/index.ts). */
import { transmitDescriptor } from '../descriptor.js';
import { hostName, sslFields, text } from '../../secret-fields.js';
import { warning, say } from '../../violations.js';
import { SqlTransmitSchema } from './schema.js';
import { sqlTransmitTemplate } from './template.js';

const DEFAULT_PORTS = { postgresql: 5432, mysql: 3306, mssql: 1433 } as const;

export const sqlTransmit = transmitDescriptor({
  type: 'sql',
  schema: SqlTransmitSchema,
  rules: (transmit, { base }) =>
    transmit.ssl || ['127.0.0.1', 'localhost', '::1'].includes(transmit.host)
      ? []
      : [warning([...base, 'ssl'], say('sql_transmit.password_records_travel_unencrypted', 'The password and the records travel unencrypted without ssl: use ssl unless the network is trusted.'))],
  templates: { sql: { transmit: sqlTransmitTemplate, snippet: 'SQL database' } },
  // The database the password opens, and how it travels there.
  secrets: [
    {
      secret: 'password',
      target: 'the database',
      fields: [
        { name: 'host', read: (h) => hostName(h.host) },
        { name: 'port', read: (h) => h.port ?? DEFAULT_PORTS[h.database_type as keyof typeof DEFAULT_PORTS] },
        { name: 'username', read: (h) => text(h.username) },
        { name: 'database_type' },
        { name: 'database_name', read: (h) => text(h.database_name) },
        ...sslFields(),
      ],
    },
  ],
  does: { verb: 'writes', what: 'database tables' },
  docs: 'docs/sql-transmit.md',
});
