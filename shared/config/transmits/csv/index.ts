/** The csv transmit, as the configuration code sees it (registered in transmits/index.ts). */
import { transmitDescriptor } from '../descriptor.js';
import { CsvTransmitSchema } from './schema.js';

export const csvTransmit = transmitDescriptor({
  type: 'csv',
  schema: CsvTransmitSchema,
  does: { verb: 'writes', what: 'csv files' },
  docs: 'docs/data-path.md',
});
