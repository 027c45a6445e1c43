/** The opcua receiver's configuration: tags read from an OPC UA server. */
import { z } from 'zod';
import { name, receiverCommon } from '../../receiver-parts.js';
import { streamIdentity } from '../../schema-parts.js';

export const OpcuaTagSchema = z.strictObject({
  name: name('name').describe('Node id, e.g. ns=2;s=Line1.Temperature; with namespace_index, the identifier alone (Line1.Temperature, or i=1001).'),
  exportname: name('exportname').describe('Column name of this tag in the records.'),
  namespace_index: z.number().int().min(0).max(65535).optional().describe('Namespace of the node (the product family\'s form): with name "Counter1" and namespace_index 5 the node id is ns=5;s=Counter1.'),
});

export const OpcuaStreamSchema = z.strictObject({
  ...streamIdentity,
  opcua_tags: z.array(OpcuaTagSchema).min(1).describe('Tags read for this stream.'),
});

export const OpcuaConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  host: name('host').describe('OPC UA server name or IP address.'),
  port: z.number().int().min(1).max(65535).default(4840).describe('OPC UA port, default 4840 (the registered OPC UA port).'),
  timeout: z.number().positive().default(10).describe('Seconds to wait for the server (connect and each request).'),
  endpoint_path: z.string().optional().describe('Path part of the endpoint URL, if the server needs one, e.g. /OPCUA/SimulationServer.'),
  server_name: z.string().min(1).optional().describe('The product family\'s name for endpoint_path, e.g. iaopcua for opc.tcp://host:port/iaopcua.'),
  security_mode: z
    .enum(['None', 'Sign', 'SignAndEncrypt'])
    .optional()
    .describe('Message security: None (default), Sign, or SignAndEncrypt (recommended on plant networks).'),
  security_policy: z
    .enum(['None', 'Basic256Sha256', 'Aes128_Sha256_RsaOaep', 'Aes256_Sha256_RsaPss'])
    .optional()
    .describe('Security policy; default Basic256Sha256 when security_mode is Sign or SignAndEncrypt, None otherwise.'),
  username: z.string().optional().describe('User name; leave out (with password) for anonymous access.'),
  password: z.string().optional().describe('Password; shown as ******** when read back.'),
  trusted_server_certificates: z
    .array(z.string().min(1))
    .default([])
    .describe('SHA-1 thumbprints (40 hex digits, ":" and spaces allowed) of server certificates to trust; the marker of an untrusted server shows its thumbprint.'),
  trust_on_first_use: z
    .boolean()
    .default(false)
    .describe('Trust the certificate the server shows on the first secure connection and pin it; a different certificate later is refused. Default false: refuse until trusted.'),
});

export const OpcuaReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('opcua'),
    read_mode: z.enum(['subscription', 'polling']).default('subscription').describe('subscription (default) or polling at poll_interval.'),
    sampling_interval_ms: z.number().int().min(0).default(1000).describe('Sampling interval of monitored items in milliseconds.'),
    queue_size: z.number().int().min(1).max(10_000).default(10).describe('Values the server keeps per tag between two publishes (subscription), oldest discarded first. Default 10.'),
    history_backfill: z
      .boolean()
      .default(false)
      .describe('On start and after each reconnect, read the values the agent missed from the server\'s history (HistoryRead), then continue live. The server must historize the tags (Historizing, HistoryRead access).'),
    history_backfill_max_hours: z.number().min(0.01).max(8760).default(24).describe('Backfill reaches back at most this many hours. Default 24.'),
    connections: z.array(OpcuaConnectionSchema).min(1, 'an opcua receiver needs at least 1 connection'),
    streams: z.array(OpcuaStreamSchema).min(1, 'an opcua receiver needs at least 1 stream'),
  })
  .describe('Reads tags from an OPC UA server.');

