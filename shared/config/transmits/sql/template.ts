/** The sql transmit's template: a PostgreSQL historian table. */
import { prompt } from '../../template-parts.js';

export const sqlTransmitTemplate = {
  transmit_name: 'historian',
  transmit_type: 'sql' as const,
  filter_stream: ['*'],
  host: prompt('database server name or IP address'),
  port: 5432,
  username: prompt('database user'),
  password: prompt('password'),
  database_type: 'postgresql' as const,
  database_name: prompt('database name'),
  table: 'machine_data',
  layout: 'json' as const,
};
