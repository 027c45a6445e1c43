/** SQL receiver (`protocol: "sql"`): MS SQL Server, PostgreSQL, MySQL/MariaDB. See docs/sql.md. */
export { SqlReceiver } from './sql-receiver.js';
export { previewSql, type SqlStreamPreview } from './sql-preview.js';
