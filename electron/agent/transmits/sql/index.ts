/** The sql transmit (`transmit_type: "sql"`): records into the plant's own database. See docs/sql-transmit.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type SqlTransmitConfig, SqlTransmit } from './sql-transmit.js';

const createSqlTransmit: ComponentFactory<SqlTransmitConfig> = (config, context) => new SqlTransmit(config, context);
export default createSqlTransmit;
