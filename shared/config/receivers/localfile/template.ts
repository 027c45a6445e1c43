/** The localfile receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { LocalfileReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';
import { SPREADSHEET_PARSER_TEMPLATE as csvParser } from '../../parsers/spreadsheet/template.js';
import { localTimeToUtc } from '../../transforms/convert-timestamps/template.js';

export const receiver = {
  data_receiver_name: 'local_files',
  protocol: 'localfile',
  poll_interval: 5,
  delete_completed: false,
  connections: [{ root_path: prompt('absolute path of the folder the machines write to') }],
  streams: [{ ...stream, file_filter: ['*.csv'] }],
  parsers: [csvParser],
} as const satisfies z.input<typeof LocalfileReceiverSchema>;

export const localfileTemplate: ReceiverTemplate = {
  title: 'Localfile',
  description: 'CSV files that machines drop into a folder on this PC, uploaded to the cloud.',
  receiver,
  transforms: [localTimeToUtc],
};
