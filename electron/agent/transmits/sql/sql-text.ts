/**
 * The SQL the sql transmit sends, per dialect, as pure functions (tested as text for MS SQL Server,
 * which cannot run here; run against PostgreSQL and MariaDB in the integration tests):
 * - layout json: one table (record_id primary key, asset, stream_type, timestamp, fields as JSON);
 * - layout wide: a table per stream type (record_id, asset, timestamp, a column per field).
 * Inserts skip a record_id the table has (ON CONFLICT DO NOTHING, ON DUPLICATE KEY UPDATE of the key
 * to itself, MERGE … WHEN NOT MATCHED): a batch delivered again after a crash adds nothing.
 * Identifiers are quoted; table names are checked by the schema, column names (field names) here.
 */
export type Dialect = 'postgresql' | 'mysql' | 'mssql';
export type ColumnType = 'number' | 'boolean' | 'text';

/** Longest column name every dialect takes (PostgreSQL: 63 bytes). */
/** The columns of layout json's table, in the order rows are inserted. */
export const JSON_COLUMNS = [
  { name: 'record_id', type: 'key' as const },
  { name: 'asset', type: 'name' as const },
  { name: 'stream_type', type: 'name' as const },
  { name: 'timestamp', type: 'time' as const },
  { name: 'fields', type: 'json' as const },
];

const MAX_NAME_BYTES = 63;

export function quote(dialect: Dialect, name: string): string {
  if (dialect === 'mysql') return `\`${name.replace(/`/g, '``')}\``;
  if (dialect === 'mssql') return `[${name.replace(/]/g, ']]')}]`;
  return `"${name.replace(/"/g, '""')}"`;
}

/** Why a field name cannot be a column, if it cannot. */
export function columnNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'an empty name';
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) return `longer than ${MAX_NAME_BYTES} bytes`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a control character';
  if (['record_id', 'asset', 'timestamp'].includes(name.toLowerCase())) return 'a name the table has for itself';
  return undefined;
}

/** The table of a stream type in layout wide: `<table>_<stream_type>`, its name reduced to letters, digits and _. */
export function wideTableName(prefix: string, streamType: string): string {
  const tail = streamType.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'stream';
  return `${prefix}_${tail}`.slice(0, MAX_NAME_BYTES);
}

const TYPES: Record<Dialect, Record<ColumnType | 'key' | 'name' | 'time' | 'json', string>> = {
  postgresql: { key: 'TEXT', name: 'TEXT', time: 'TIMESTAMPTZ', json: 'JSONB', number: 'DOUBLE PRECISION', boolean: 'BOOLEAN', text: 'TEXT' },
  mysql: { key: 'VARCHAR(191)', name: 'VARCHAR(255)', time: 'DATETIME(6)', json: 'JSON', number: 'DOUBLE', boolean: 'BOOLEAN', text: 'LONGTEXT' },
  mssql: { key: 'NVARCHAR(200)', name: 'NVARCHAR(255)', time: 'DATETIME2(6)', json: 'NVARCHAR(MAX)', number: 'FLOAT', boolean: 'BIT', text: 'NVARCHAR(MAX)' },
};

/** The column type of a value (a column's type comes from the first value of its field). */
export function columnTypeOf(value: unknown): ColumnType | undefined {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'text';
  return undefined; // null: says nothing yet
}

/** The column type of a database's own type name (information_schema.columns.data_type). */
export function columnTypeOfDatabase(type: string): ColumnType {
  const t = type.toLowerCase();
  if (/^(double|float|real|numeric|decimal|int|bigint|smallint|integer)/.test(t)) return 'number';
  if (/^(bool|bit|tinyint)/.test(t)) return 'boolean';
  return 'text';
}

/** A value as its column takes it, or `undefined` when it does not fit (written as NULL, counted). */
export function fitValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'text') return typeof value === 'string' ? value : String(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  return typeof value === 'boolean' ? value : undefined;
}

function createIfMissing(dialect: Dialect, table: string, columns: string): string {
  if (dialect === 'mssql') return `IF OBJECT_ID(N'${table.replace(/'/g, "''")}', N'U') IS NULL CREATE TABLE ${quote(dialect, table)} (${columns})`;
  return `CREATE TABLE IF NOT EXISTS ${quote(dialect, table)} (${columns})`;
}

/** CREATE TABLE of layout json. */
export function createJsonTable(dialect: Dialect, table: string): string {
  const t = TYPES[dialect];
  const q = (name: string) => quote(dialect, name);
  return createIfMissing(dialect, table, `${q('record_id')} ${t.key} NOT NULL PRIMARY KEY, ${q('asset')} ${t.name} NOT NULL, ${q('stream_type')} ${t.name} NOT NULL, ${q('timestamp')} ${t.time} NOT NULL, ${q('fields')} ${t.json} NOT NULL`);
}

/** CREATE TABLE of layout wide, with the columns known so far. */
export function createWideTable(dialect: Dialect, table: string, columns: ReadonlyMap<string, ColumnType>): string {
  const t = TYPES[dialect];
  const q = (name: string) => quote(dialect, name);
  const fields = [...columns].map(([name, type]) => `, ${q(name)} ${t[type]} NULL`).join('');
  return createIfMissing(dialect, table, `${q('record_id')} ${t.key} NOT NULL PRIMARY KEY, ${q('asset')} ${t.name} NOT NULL, ${q('timestamp')} ${t.time} NOT NULL${fields}`);
}

export function addColumn(dialect: Dialect, table: string, column: string, type: ColumnType): string {
  const add = dialect === 'mssql' ? 'ADD' : 'ADD COLUMN';
  return `ALTER TABLE ${quote(dialect, table)} ${add} ${quote(dialect, column)} ${TYPES[dialect][type]} NULL`;
}

/** The columns a table has (name, type), asked of information_schema: one bound parameter, the table. */
export function columnsQuery(dialect: Dialect): string {
  if (dialect === 'postgresql') return 'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1';
  if (dialect === 'mysql') return 'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?';
  return 'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = @p0';
}

/** A record time stamp (ISO 8601, Z) as the dialect's parameter takes it (UTC). */
export function timeValue(dialect: Dialect, iso: string): string {
  if (dialect === 'postgresql') return iso;
  // DATETIME(6) / DATETIME2(6) hold no zone: the UTC wall time.
  return iso.replace('T', ' ').replace(/Z$/, '');
}

/**
 * INSERT of `rows` rows of `columns` that skips record_ids the table has. PostgreSQL: the rows as
 * one JSON parameter (recordsetJson) expanded by json_to_recordset, so that a batch of any size is
 * one statement; MySQL: rows inline
 * as `?` groups; MS SQL Server: MERGE of `@pN` rows (at most 2,100 parameters a statement: the
 * caller sends at most maxRowsPerStatement rows).
 */
export function insertSkippingKnown(dialect: Dialect, table: string, columns: readonly { name: string; type: ColumnType | 'key' | 'name' | 'time' | 'json' }[], rows: number): string {
  const q = (name: string) => quote(dialect, name);
  const names = columns.map((c) => q(c.name)).join(', ');
  if (dialect === 'postgresql') {
    const keys = columns.map((_, i) => q(`c${i}`));
    const shape = columns.map((c, i) => `${keys[i]} ${TYPES.postgresql[c.type]}`).join(', ');
    return `INSERT INTO ${q(table)} (${names}) SELECT ${keys.join(', ')} FROM json_to_recordset($1::json) AS r(${shape}) ON CONFLICT (${q('record_id')}) DO NOTHING`;
  }
  if (dialect === 'mysql') {
    const row = `(${columns.map(() => '?').join(', ')})`;
    return `INSERT INTO ${q(table)} (${names}) VALUES ${Array.from({ length: rows }, () => row).join(', ')} ON DUPLICATE KEY UPDATE ${q('record_id')} = ${q('record_id')}`;
  }
  const values = Array.from({ length: rows }, (_, r) => `(${columns.map((_, c) => `@p${r * columns.length + c}`).join(', ')})`).join(', ');
  const source = columns.map((c) => `source.${q(c.name)}`).join(', ');
  return `MERGE ${q(table)} AS target USING (VALUES ${values}) AS source (${names}) ON target.${q('record_id')} = source.${q('record_id')} WHEN NOT MATCHED THEN INSERT (${names}) VALUES (${source});`;
}

/**
 * PostgreSQL, layout json: INSERT of records given as one JSON array of records as the outbox keeps
 * them (records-json-codec), expanded by json_to_recordset by their own keys. The agent decodes and
 * encodes nothing; the server parses each record's fieldvalues into jsonb once.
 */
export function insertJsonRecords(table: string): string {
  const q = (name: string) => quote('postgresql', name);
  return `INSERT INTO ${q(table)} (${q('record_id')}, ${q('asset')}, ${q('stream_type')}, ${q('timestamp')}, ${q('fields')}) SELECT ${q('record_id')}, ${q('asset')}, ${q('stream_type')}, ${q('timestamp')}, ${q('fieldvalues')} FROM json_to_recordset($1::json) AS r(${q('record_id')} TEXT, ${q('asset')} TEXT, ${q('stream_type')} TEXT, ${q('timestamp')} TIMESTAMPTZ, ${q('fieldvalues')} JSONB) ON CONFLICT (${q('record_id')}) DO NOTHING`;
}

/** JSON arrays (UTF-8 texts `[…]`) joined into one array. */
export function joinedJsonArrays(arrays: readonly Buffer[]): string {
  const items = arrays.map((a) => a.toString('utf8').trim().slice(1, -1).trim()).filter((text) => text.length > 0);
  return `[${items.join(',')}]`;
}

/**
 * PostgreSQL's parameter of insertSkippingKnown: a JSON array with an object per row, keys c0, c1, …
 * by column, made by one native JSON.stringify (a json column's text is parsed back into its value
 * first: json_to_recordset then reads it as the column's jsonb).
 */
export function recordsetJson(columns: readonly { type: string }[], rows: readonly unknown[][]): string {
  const keys = columns.map((_, c) => `c${c}`);
  const json = columns.map((column) => column.type === 'json');
  const objects = new Array<Record<string, unknown>>(rows.length);
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r]!;
    const object: Record<string, unknown> = {};
    for (let c = 0; c < keys.length; c += 1) {
      const value = row[c] ?? null;
      object[keys[c]!] = json[c] && typeof value === 'string' ? JSON.parse(value) : value;
    }
    objects[r] = object;
  }
  return JSON.stringify(objects);
}

/** Rows per INSERT: PostgreSQL takes any number (arrays), the others are bound by parameters. */
export function maxRowsPerStatement(dialect: Dialect, columns: number): number {
  if (dialect === 'postgresql') return Number.POSITIVE_INFINITY;
  if (dialect === 'mssql') return Math.max(1, Math.min(1000, Math.floor(2000 / columns)));
  return Math.max(1, Math.floor(60_000 / columns));
}
