/** The csv transmit (`transmit_type: "csv"`): records appended to CSV files. See docs/data-path.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type CsvTransmitConfig, CsvTransmit } from './csv-transmit.js';

const createCsvTransmit: ComponentFactory<CsvTransmitConfig> = (config, context) => new CsvTransmit(config, context, context.services);
export default createCsvTransmit;
