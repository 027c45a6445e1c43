/** The opcua receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { OpcuaReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';

export const receiver = {
  data_receiver_name: 'opcua_server',
  protocol: 'opcua',
  poll_interval: 5,
  read_mode: 'subscription',
  sampling_interval_ms: 1000,
  queue_size: 10,
  history_backfill: false,
  connections: [
    {
      host: prompt('OPC UA server name or IP address'),
      port: 4840,
      timeout: 10,
      security_mode: 'SignAndEncrypt',
      security_policy: 'Basic256Sha256',
      // Empty: the first connection shows the server certificate's thumbprint in a marker; add it here once checked.
      trusted_server_certificates: [],
      trust_on_first_use: false,
    },
  ],
  streams: [
    {
      ...stream,
      opcua_tags: [{ name: prompt('node id, e.g. ns=2;s=Line1.Temperature'), exportname: prompt('column name, e.g. temperature') }],
    },
  ],
} as const satisfies z.input<typeof OpcuaReceiverSchema>;

export const opcuaTemplate: ReceiverTemplate = {
  title: 'OPCUA',
  description: 'Tags of an OPC UA server, read by subscription over an encrypted session (SignAndEncrypt).',
  receiver,
};
