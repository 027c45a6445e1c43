/** The remotedatapost transmit and the top-level sight_machine_cloud block its credentials fall back to. */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb } from '../../schema-parts.js';

/** Upload requests are never bigger than this, whatever max_request_size_bytes says (as in the product family). */
export const MAX_REQUEST_SIZE_BYTES = 4 * 1024 * 1024;

export const RemoteDataPostTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('remotedatapost').default('remotedatapost').describe('remotedatapost (the default), csv or mqtt.'),
    filter_stream: FilterStreamSchema.default(['*']),
    base_url: z.string().min(1).optional().describe('URL of the remote server, https://<tenant>.<domain>; default: sight_machine_cloud.base_url.'),
    API_key: z.string().min(1).optional().describe('Edge API key: the encryption secret, never sent. Shown as ******** when read back. Default: sight_machine_cloud.api_key.'),
    API_key_ID: z.string().min(1).optional().describe('Edge API key id, sent as X-SM-API-Key-ID. Default: sight_machine_cloud.api_key_id.'),
    timeout: z.number().int().min(1).max(3600).default(120).describe('Seconds before a request is given up and retried.'),
    poll_interval: z.number().int().min(1).max(86400).default(5).describe('Most seconds between two uploads.'),
    max_request_records: z.number().int().min(1).max(100_000).default(3000).describe('Records per request at most.'),
    max_request_size_bytes: z
      .number()
      .int()
      .min(1024)
      .optional()
      .describe(`Bytes per request at most; capped at ${MAX_REQUEST_SIZE_BYTES} (4 MiB) whatever is set, as in the product family. Default: the cap.`),
    use_encryption: z.boolean().default(true).describe('Encrypt uploads with the API key (Fernet). Default true.'),
    max_buffer_mb: maxBufferMb,
  })
  .describe('Uploads records to the cloud (RDP2 wire format).');

export const SightMachineCloudSchema = z
  .strictObject({
    base_url: z.string().min(1).optional().describe('URL of the remote server, https://<tenant>.<domain>.'),
    api_key: z.string().min(1).optional().describe('Edge API key (the encryption secret). Shown as ******** when read back.'),
    API_key: z.string().min(1).optional().describe('Same as api_key (the transmit\'s spelling).'),
    api_key_id: z.string().min(1).optional().describe('Edge API key id.'),
    API_key_ID: z.string().min(1).optional().describe('Same as api_key_id (the transmit\'s spelling).'),
  })
  .describe('Cloud credentials for every remotedatapost transmit that does not set its own base_url, API_key or API_key_ID (the product family\'s top-level block).');
