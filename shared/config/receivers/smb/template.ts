/** The smb receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { SmbReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';
import { SPREADSHEET_PARSER_TEMPLATE as csvParser } from '../../parsers/spreadsheet/template.js';
import { localTimeToUtc } from '../../transforms/convert-timestamps/template.js';

export const receiver = {
  data_receiver_name: 'network_share',
  protocol: 'smb',
  poll_interval: 10,
  delete_completed: false,
  connections: [
    {
      host: prompt('file server name or IP address'),
      port: 445,
      domain: '',
      username: prompt('user name'),
      password: prompt('password'),
      shared_folder: prompt('share name and optional sub-folder, e.g. machines/line1'),
    },
  ],
  streams: [{ ...stream, file_filter: ['*.csv'] }],
  parsers: [csvParser],
} as const satisfies z.input<typeof SmbReceiverSchema>;

export const smbTemplate: ReceiverTemplate = {
  title: 'SMB',
  description: 'CSV files on a Windows network share, uploaded to the cloud.',
  receiver,
  transforms: [localTimeToUtc],
};
