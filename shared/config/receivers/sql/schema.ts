/** The sql receiver's configuration: one query per stream. */
import { z } from 'zod';
import { name, receiverCommon } from '../../receiver-parts.js';
import { streamIdentity, timeZoneName } from '../../schema-parts.js';

export const SqlStateFieldSchema = z.strictObject({
  column_name: name('column_name').describe('Column whose last value is remembered and bound to the placeholder of the same name.'),
  data_type: z.enum(['integer', 'float', 'string', 'datetime']).describe('Type of the column.'),
  initial_value: z.union([z.string(), z.number()]).optional().describe('Value bound before the first row was ever read.'),
});

export const SqlStreamSchema = z.strictObject({
  ...streamIdentity,
  query: name('query').describe('SELECT with named placeholders such as :id bound from state_fields, e.g. SELECT * FROM t WHERE id > :id ORDER BY id.'),
  state_fields: z.array(SqlStateFieldSchema).default([]).describe('Columns that mark progress; one per placeholder.'),
  connection: z.string().min(1).optional().describe('connection_name of the connection this stream reads from; default: the first connection.'),
  timestamp_column: z.string().min(1).optional().describe('Column holding the record time stamp; default: the first datetime state field, else the time of reading.'),
});

export const SqlConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  host: name('host'),
  port: z.number().int().min(1).max(65535).describe('Database port: 1433 MS SQL Server, 5432 PostgreSQL, 3306 MySQL/MariaDB.'),
  username: name('username'),
  password: z.string().describe('Password; shown as ******** when read back.'),
  database_type: z.enum(['mssql', 'postgresql', 'mysql']).describe('mssql, postgresql or mysql (also MariaDB).'),
  database_name: name('database_name'),
  ssl: z.boolean().default(false).describe('Use TLS to the database.'),
  trust_server_certificate: z.boolean().default(false).describe('With ssl: accept any server certificate (self-signed). Default false: the certificate must be valid for host.'),
  instance_name: z.string().min(1).optional().describe('MS SQL Server named instance (e.g. SQLEXPRESS); its port is asked from SQL Server Browser (UDP 1434) and port is ignored.'),
  timezone: timeZoneName('IANA time zone of date-time columns without zone (timestamp, DATETIME, datetime2), e.g. Europe/Berlin. Default UTC.').optional(),
  connect_timeout: z.number().int().min(1).max(600).default(15).describe('Seconds to wait for the database to accept a connection (default 15).'),
  query_timeout: z.number().int().min(1).max(3600).default(60).describe('Seconds a query may run before it is cancelled (default 60).'),
});

export const SqlReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('sql'),
    max_rows_per_poll: z.number().int().min(1).max(1_000_000).default(10_000).describe('Rows read per stream and poll at most.'),
    connections: z.array(SqlConnectionSchema).min(1, 'an sql receiver needs at least 1 connection'),
    streams: z.array(SqlStreamSchema).min(1, 'an sql receiver needs at least 1 stream'),
  })
  .describe('Runs one query per stream against MS SQL Server, PostgreSQL or MySQL/MariaDB.');

