/** SQL receiver (`protocol: "sql"`): MS SQL Server, PostgreSQL, MySQL/MariaDB. See docs/sql.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type SqlReceiverConfig, SqlReceiver } from './sql-receiver.js';

export { SqlReceiver };

const createSqlReceiver: ComponentFactory<SqlReceiverConfig> = (config, context) => new SqlReceiver(config, context);
export default createSqlReceiver;
