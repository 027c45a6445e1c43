/** The sql transmit: records into a table of the plant's own database (docs/sql-transmit.md). */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb } from '../../schema-parts.js';

/** A table name written into SQL text: letters, digits and _, starting with a letter or _. */
export const SQL_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const SqlTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('sql'),
    filter_stream: FilterStreamSchema.default(['*']),
    host: z.string().min(1, 'host must not be empty').describe('Database server name or IP address.'),
    port: z.number().int().min(1).max(65535).optional().describe('Database port; default 5432 PostgreSQL, 3306 MySQL/MariaDB, 1433 MS SQL Server.'),
    username: z.string().min(1, 'username must not be empty').describe('Database user; it needs INSERT (and CREATE, unless the tables exist).'),
    password: z.string().describe('Password; shown as ******** when read back.'),
    database_type: z.enum(['postgresql', 'mysql', 'mssql']).describe('postgresql, mysql (also MariaDB) or mssql (MS SQL Server).'),
    database_name: z.string().min(1, 'database_name must not be empty').describe('The database the table is in.'),
    table: z
      .string()
      .regex(SQL_IDENTIFIER, 'table: letters, digits and _ (at most 63), starting with a letter or _')
      .default('machine_data')
      .describe('Table the records go to (layout json), or the prefix of one table per stream type (layout wide: <table>_<stream_type>). Created when missing.'),
    layout: z
      .enum(['json', 'wide'])
      .default('json')
      .describe('json (default): one table, the fields as one JSON column. wide: one table per stream type with a column per field (added as fields appear).'),
    ssl: z.boolean().default(false).describe('Use TLS to the database.'),
    trust_server_certificate: z.boolean().default(false).describe('With ssl: accept any server certificate (self-signed). Default false.'),
    batch_records: z.number().int().min(1).max(100_000).default(5000).describe('Records written per transaction at most (default 5,000).'),
    timeout: z.number().int().min(1).max(600).default(30).describe('Seconds to connect and for each transaction (default 30).'),
    poll_interval: z.number().int().min(1).max(86400).default(1).describe('Most seconds between two deliveries; a failed one is retried after this long, doubling to a minute.'),
    max_buffer_mb: maxBufferMb,
  })
  .describe('Writes records into a table of a PostgreSQL, MySQL/MariaDB or MS SQL Server database, exactly once (record_id is the key).');
