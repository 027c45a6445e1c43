/**
 * The configuration contract: one zod schema per block of the configuration document.
 * Everything else derives from these schemas: TypeScript types (z.infer), the JSON Schema served by
 * /v1/meta and /v1/openapi.json, the console editor's completion and hover docs, and the structural
 * half of validation (see validate.ts for the semantic half). Field names follow the spec verbatim.
 */
import { z } from 'zod';
import { SpreadsheetParseOptionsSchema } from './csv-options.js';
import { streamIdentity, timeZoneName } from './schema-parts.js';
import { TransformSchema } from './transform-schema.js';
import { MqttReceiverSchema } from './mqtt-schema.js';
import { DOCUMENT_PARSER_SCHEMAS } from './parsers/index.js';
import { DataQualitySchema } from './data-quality-schema.js';
import { FilterStreamSchema, SightMachineCloudSchema, type Transmit, TransmitSchema } from './transmit-schema.js';

export * from './transmit-schema.js';
export * from './transform-schema.js';
export * from './data-quality-schema.js';
export { TIME_ZONE_FORMAT } from './schema-parts.js';

const name = (what: string) => z.string().min(1, `${what} must not be empty`);


const pollInterval = z
  .number()
  .int()
  .min(1)
  .max(65535)
  .default(5)
  .describe('Seconds between two looks at the source (1..65535, default 5).');

const deleteCompleted = z
  .boolean()
  .default(false)
  .describe('Delete each source file after it has been read and buffered. Default false.');

// ---------------------------------------------------------------- parsers

export { BadLinesActionSchema, ParseTimestampSchema, SpreadsheetParseOptionsSchema } from './csv-options.js';

const parserFields = {
  parser_name: name('parser_name').describe('Name that streams refer to.'),
  filter_stream: FilterStreamSchema.optional(),
  file_format: z.enum(['csv']).default('csv').describe('File format; csv is supported.'),
  file_encoding: z
    .string()
    .min(1)
    .default('utf-8')
    .describe('Text encoding of the files by its Python codec name (default utf-8), e.g. cp1252 (windows-1252), latin-1, iso8859-15, cp850, shift_jis, cp932, gbk, big5, euc_kr, utf-8-sig, utf-16, utf-16-le, utf-16-be. A byte order mark, when present, wins.'),
  options: z
    .strictObject({
      localtz: timeZoneName('IANA time zone of local times in the files, e.g. Europe/Berlin. Default UTC.').optional(),
      counter: z.boolean().optional().describe('Add a running counter column to each record.'),
      parse: SpreadsheetParseOptionsSchema.optional(),
    })
    .optional(),
};

export const SpreadsheetParserSchema = z
  .strictObject({ ...parserFields, parser_type: z.literal('spreadsheet') })
  .describe('Reads delimiter-separated text files (CSV) into records.');

export const CsvParserSchema = z
  .strictObject({
    ...parserFields,
    parser_type: z.literal('csv'),
    separator: z.string().min(1).optional().describe('Column separator, default ","; "\\t" for tab-separated files, "|" for pipes. Same as options.parse.separator.'),
  })
  .describe('The product family\'s csv parser: the spreadsheet parser with the separator at the top level.');

export const ParserSchema = z.discriminatedUnion('parser_type', [SpreadsheetParserSchema, CsvParserSchema, ...DOCUMENT_PARSER_SCHEMAS]);
/** The line-by-line (csv) parsers; the others read whole documents (parsers/index.ts). */
export type TextParser = z.infer<typeof SpreadsheetParserSchema> | z.infer<typeof CsvParserSchema>;

// ---------------------------------------------------------------- streams

export const FileStreamSchema = z.strictObject({
  ...streamIdentity,
  file_filter: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Patterns of file names: globs such as "*.csv" (* ? [a-z] **), or regular expressions written "regex:<expression>" (the whole name must match). A pattern with "/" is matched against the path below the folder. Exactly one of file_filter and path_filter.'),
  path_filter: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Like file_filter, but every pattern is matched against the path below the connection\'s folder ("/" separated), e.g. "line1/**/*.csv" or "regex:line[0-9]/.*\\.csv". Exactly one of file_filter and path_filter.'),
  parser: z.string().min(1).optional().describe('parser_name of the parser for this stream; default: the first parser whose filter_stream matches.'),
});

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

export const OpcuaTagSchema = z.strictObject({
  name: name('name').describe('Node id, e.g. ns=2;s=Line1.Temperature; with namespace_index, the identifier alone (Line1.Temperature, or i=1001).'),
  exportname: name('exportname').describe('Column name of this tag in the records.'),
  namespace_index: z.number().int().min(0).max(65535).optional().describe('Namespace of the node (the product family\'s form): with name "Counter1" and namespace_index 5 the node id is ns=5;s=Counter1.'),
});

export const OpcuaStreamSchema = z.strictObject({
  ...streamIdentity,
  opcua_tags: z.array(OpcuaTagSchema).min(1).describe('Tags read for this stream.'),
});

// ---------------------------------------------------------------- connections

export const LocalfileConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  root_path: z.string().min(1).optional().describe('Absolute path of the folder the machines write to.'),
  data_directory: z.string().min(1).optional().describe('Same as root_path (the form used by templates).'),
  retrieve_ordered_files: z.boolean().optional().describe('Product family option for S3 sources only; has no effect here (validation warns).'),
});

export const SmbConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  host: name('host').describe('File server name or IP address.'),
  port: z.number().int().min(1).max(65535).default(445).describe('SMB port, default 445.'),
  domain: z.string().optional().describe('Windows domain of the user, if any.'),
  username: name('username'),
  password: z.string().describe('Password; shown as ******** when read back.'),
  shared_folder: name('shared_folder').describe('Share name and optional sub-path, e.g. machines/line1.'),
  retrieve_ordered_files: z.boolean().optional().describe('Product family option for S3 sources only; has no effect here (validation warns).'),
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

export const OpcuaConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  host: name('host').describe('OPC UA server name or IP address.'),
  port: z.number().int().min(1).max(65535).default(4840).describe('OPC UA port, default 4840 (the registered OPC UA port).'),
  timeout: z.number().positive().default(10).describe('Seconds to wait for the server (connect and each request).'),
  endpoint_path: z.string().optional().describe('Path part of the endpoint URL, if the server needs one, e.g. /OPCUA/SimulationServer.'),
  server_name: z.string().min(1).optional().describe('The product family\'s name for endpoint_path, e.g. iaopcua for opc.tcp://host:port/iaopcua.'),
  security_mode: z
    .enum(['None', 'Sign', 'SignAndEncrypt'])
    .optional()
    .describe('Message security: None (default), Sign, or SignAndEncrypt (recommended on plant networks).'),
  security_policy: z
    .enum(['None', 'Basic256Sha256', 'Aes128_Sha256_RsaOaep', 'Aes256_Sha256_RsaPss'])
    .optional()
    .describe('Security policy; default Basic256Sha256 when security_mode is Sign or SignAndEncrypt, None otherwise.'),
  username: z.string().optional().describe('User name; leave out (with password) for anonymous access.'),
  password: z.string().optional().describe('Password; shown as ******** when read back.'),
  trusted_server_certificates: z
    .array(z.string().min(1))
    .default([])
    .describe('SHA-1 thumbprints (40 hex digits, ":" and spaces allowed) of server certificates to trust; the marker of an untrusted server shows its thumbprint.'),
  trust_on_first_use: z
    .boolean()
    .default(false)
    .describe('Trust the certificate the server shows on the first secure connection and pin it; a different certificate later is refused. Default false: refuse until trusted.'),
});

// ---------------------------------------------------------------- receivers

const receiverCommon = {
  data_receiver_name: z.string().min(1, 'data_receiver_name must not be empty').describe('Unique name; progress is kept under it.'),
  poll_interval: pollInterval,
};

/** Order in which file receivers read the files they find (docs/data-path.md). */
const fileOrder = {
  process_files_alphabetically: z
    .boolean()
    .optional()
    .describe('true: files are read one after the other in name order; false: oldest modification time first. Unset: name order, two files at a time.'),
  process_ordered_connections: z
    .boolean()
    .optional()
    .describe('true: all files of the first connection, then of the next (one file at a time); false: the files of all connections in one order. Unset: connection after connection, two files at a time.'),
};

export const LocalfileReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('localfile'),
    delete_completed: deleteCompleted,
    ...fileOrder,
    connections: z.array(LocalfileConnectionSchema).min(1, 'a localfile receiver needs at least 1 connection'),
    streams: z.array(FileStreamSchema).min(1, 'a localfile receiver needs at least 1 stream'),
    parsers: z.array(ParserSchema).min(1, 'a localfile receiver needs at least 1 parser'),
  })
  .describe('Reads files that machines drop into a local folder.');

export const SmbReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('smb'),
    delete_completed: deleteCompleted,
    ...fileOrder,
    connections: z.array(SmbConnectionSchema).min(1, 'an smb receiver needs at least 1 connection'),
    streams: z.array(FileStreamSchema).min(1, 'an smb receiver needs at least 1 stream'),
    parsers: z.array(ParserSchema).min(1, 'an smb receiver needs at least 1 parser'),
  })
  .describe('Reads files from a Windows network share (SMB2/3).');

export const SqlReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('sql'),
    max_rows_per_poll: z.number().int().min(1).max(1_000_000).default(10_000).describe('Rows read per stream and poll at most.'),
    connections: z.array(SqlConnectionSchema).min(1, 'an sql receiver needs at least 1 connection'),
    streams: z.array(SqlStreamSchema).min(1, 'an sql receiver needs at least 1 stream'),
  })
  .describe('Runs one query per stream against MS SQL Server, PostgreSQL or MySQL/MariaDB.');

export const OpcuaReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('opcua'),
    read_mode: z.enum(['subscription', 'polling']).default('subscription').describe('subscription (default) or polling at poll_interval.'),
    sampling_interval_ms: z.number().int().min(0).default(1000).describe('Sampling interval of monitored items in milliseconds.'),
    queue_size: z.number().int().min(1).max(10_000).default(10).describe('Values the server keeps per tag between two publishes (subscription), oldest discarded first. Default 10.'),
    history_backfill: z
      .boolean()
      .default(false)
      .describe('On start and after each reconnect, read the values the agent missed from the server\'s history (HistoryRead), then continue live. The server must historize the tags (Historizing, HistoryRead access).'),
    history_backfill_max_hours: z.number().min(0.01).max(8760).default(24).describe('Backfill reaches back at most this many hours. Default 24.'),
    connections: z.array(OpcuaConnectionSchema).min(1, 'an opcua receiver needs at least 1 connection'),
    streams: z.array(OpcuaStreamSchema).min(1, 'an opcua receiver needs at least 1 stream'),
  })
  .describe('Reads tags from an OPC UA server.');

export const RECEIVER_PROTOCOLS = ['localfile', 'smb', 'sql', 'opcua', 'mqtt'] as const;
export type ReceiverProtocol = (typeof RECEIVER_PROTOCOLS)[number];

export const DataReceiverSchema = z.discriminatedUnion('protocol', [
  LocalfileReceiverSchema,
  SmbReceiverSchema,
  SqlReceiverSchema,
  OpcuaReceiverSchema,
  MqttReceiverSchema,
]);

// ---------------------------------------------------------------- document

export const ConfigurationSchema = z
  .strictObject({
    data_receiver: z.array(DataReceiverSchema).default([]).describe('Sources to read.'),
    transforms: z.array(TransformSchema).default([]).describe('Changes applied to records, in list order.'),
    data_transmit: z.array(TransmitSchema).default([]).describe('Where records are sent.'),
    sight_machine_cloud: SightMachineCloudSchema.optional(),
    data_quality: DataQualitySchema.optional(),
  })
  .describe('Tributary agent configuration.');

/** A configuration as written, defaults filled in (what validation parses). */
export type ConfigurationDocument = z.infer<typeof ConfigurationSchema>;
/** A configuration as the agent runs it: transmits' credentials resolved (validate.ts). */
export type Configuration = Omit<ConfigurationDocument, 'data_transmit'> & { data_transmit: Transmit[] };
export type ConfigurationInput = z.input<typeof ConfigurationSchema>;
export type DataReceiver = z.infer<typeof DataReceiverSchema>;
export type Transform = z.infer<typeof TransformSchema>;
export type Parser = z.infer<typeof ParserSchema>;

/** Keys whose values are credentials: masked on read, kept on the mask sentinel, never logged. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['password', 'API_key', 'api_key']);
/** What GET /v1/config shows instead of a secret; sending it back keeps the stored value. */
export const SECRET_MASK = '********';

/** JSON Schema of the whole configuration document (input form: defaults are optional). */
export function configurationJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigurationSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
