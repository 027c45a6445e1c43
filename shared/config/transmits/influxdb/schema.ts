/** The influxdb transmit: records as points into InfluxDB 1.x, 2.x or 3.x (docs/influxdb.md). */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb } from '../../schema-parts.js';

export const InfluxdbTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('influxdb'),
    filter_stream: FilterStreamSchema.default(['*']),
    url: z.string().regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'url: http:// or https://, host and port, e.g. http://10.0.1.7:8086').describe('InfluxDB address, e.g. http://10.0.1.7:8086.'),
    database: z.string().min(1).optional().describe('InfluxDB 1.x: the database (with optional username and password).'),
    username: z.string().min(1).optional().describe('InfluxDB 1.x with authentication: the user.'),
    password: z.string().optional().describe('InfluxDB 1.x: the password; shown as ******** when read back.'),
    org: z.string().min(1).optional().describe('InfluxDB 2.x/3.x: the organisation (with bucket and token).'),
    bucket: z.string().min(1).optional().describe('InfluxDB 2.x/3.x: the bucket.'),
    token: z.string().optional().describe('InfluxDB 2.x/3.x: an API token with write access to the bucket; shown as ******** when read back.'),
    measurement: z.string().min(1).optional().describe('Measurement of every point; default the record\'s stream_type.'),
    tag_fields: z.array(z.string().min(1)).default([]).describe('Fields written as tags (besides asset), e.g. ["line", "shift"]; the other fields are fields.'),
    integers: z.boolean().default(false).describe('Write whole numbers as integers (5i). Default false: every number is a float, so a field never changes type.'),
    batch_points: z.number().int().min(1).max(100_000).default(5000).describe('Points per request at most (default 5,000).'),
    timeout: z.number().int().min(1).max(600).default(10).describe('Seconds to wait for an answer (default 10).'),
    poll_interval: z.number().int().min(1).max(86400).default(1).describe('Most seconds between two deliveries; a failed one is retried after this long, doubling to a minute.'),
    max_buffer_mb: maxBufferMb,
  })
  .describe('Writes records as points (line protocol, gzip) into InfluxDB 1.x (database) or 2.x/3.x (org, bucket, token).');
