/** SQL receiver (`protocol: "sql"`): MS SQL Server, PostgreSQL, MySQL/MariaDB. See docs/sql.md. */
export { SqlReceiver } from './sql-receiver.js';
