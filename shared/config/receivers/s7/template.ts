/** The s7 receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { S7ReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';

export const receiver = {
  data_receiver_name: 's7_plc',
  protocol: 's7',
  poll_interval: 1,
  connections: [{ host: prompt('PLC name or IP address'), port: 102, rack: 0, slot: 1, timeout: 3 }],
  streams: [
    {
      ...stream,
      s7_tags: [
        { exportname: 'temperature', address: 'DB1,REAL0' },
        { exportname: 'counter', address: 'DB1,DINT4' },
        { exportname: 'running', address: 'DB1,X8.0' },
        { exportname: 'marker_word', address: 'MW10' },
      ],
    },
  ],
} as const satisfies z.input<typeof S7ReceiverSchema>;

export const s7Template: ReceiverTemplate = {
  title: 'Siemens S7',
  description: 'Data blocks and M, I, Q areas of a Siemens S7-300/400/1200/1500 PLC over S7comm (PUT/GET), read in as few requests as the PLC allows every second.',
  receiver,
};
