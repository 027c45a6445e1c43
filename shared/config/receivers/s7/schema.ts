/** The s7 receiver's configuration: data blocks and M/I/Q areas of Siemens S7 PLCs over S7comm (ISO-on-TCP), read every poll_interval. */
import { z } from 'zod';
import { name, receiverCommon } from '../../receiver-parts.js';
import { streamIdentity } from '../../schema-parts.js';

export const S7TagSchema = z.strictObject({
  exportname: name('exportname').describe('Column name of this value in the records.'),
  address: z
    .string()
    .min(1, 'address must not be empty')
    .max(40)
    .describe(
      'Where the value lives, in the form of the S7 tools: DB<number>,<type><byte> with type X (a bit: DB1,X6.0), BYTE, CHAR, INT, WORD, DINT, DWORD, REAL or S (a string of declared length: DB1,S20.16); or an area with width MB/MW/MD, IB/IW/ID, QB/QW/QD and a byte (MW10), or a bit M0.1, I0.0, Q0.1. The byte is the offset shown in the data block\'s Offset column (the block needs optimized access off). STEP 7\'s absolute form DB1.DBD0 names no type: write DB1,REAL0 or DB1,DINT0.',
    )
    .meta({ examples: ['DB1,REAL0', 'DB1,INT4', 'DB1,X6.0', 'DB1,DINT8', 'DB1,BYTE12', 'DB1,WORD14', 'DB1,DWORD16', 'DB1,CHAR20', 'DB1,S20.16', 'MW10', 'MD20', 'MB0', 'M0.1', 'IW0', 'I0.0', 'QB0', 'Q0.1'] }),
});

export const S7StreamSchema = z.strictObject({
  ...streamIdentity,
  s7_tags: z.array(S7TagSchema).min(1).describe('Values read for this stream: one column each, one record per poll.'),
});

export const S7ConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional().describe('Optional name of this connection, for your own reference.'),
  host: name('host').describe('The PLC\'s (or its communication processor\'s) name or IP address.'),
  port: z.number().int().min(1).max(65535).default(102).describe('ISO-on-TCP port, default 102 (the PLC always listens there; another port only behind a gateway or for a test server).'),
  rack: z.number().int().min(0).max(7).default(0).describe('Rack of the CPU, default 0.'),
  slot: z
    .number()
    .int()
    .min(0)
    .max(31)
    .default(1)
    .describe('Slot of the CPU: 2 for an S7-300, usually 3 for an S7-400 (see its hardware configuration), 1 (default) or 0 for an S7-1200/1500.'),
  timeout: z.number().positive().max(600).default(3).describe('Seconds to wait for the PLC to accept the connection and to answer each request (default 3).'),
});

export const S7ReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('s7'),
    connections: z
      .array(S7ConnectionSchema)
      .min(1, 'an s7 receiver needs at least 1 connection')
      .describe('The PLC to read: one connection (a receiver per PLC); its requests go one at a time.'),
    streams: z.array(S7StreamSchema).min(1, 'an s7 receiver needs at least 1 stream').describe('One record per stream and poll.'),
  })
  .describe('Reads data blocks and M, I and Q areas of Siemens S7-300/400/1200/1500 PLCs over S7comm (ISO-on-TCP, PUT/GET) every poll_interval.');
