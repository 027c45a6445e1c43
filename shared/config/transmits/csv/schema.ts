/** The csv transmit: records appended to CSV files in a folder. */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb } from '../../schema-parts.js';

export const CsvTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('csv'),
    filter_stream: FilterStreamSchema.default(['*']),
    directory: z.string().min(1).optional().describe('Folder the CSV files are written to; default <data-dir>/outbox.'),
    max_file_bytes: z.number().int().min(1024).default(64 * 1024 * 1024).describe('Start a new file after this size (default 64 MiB).'),
    poll_interval: z.number().int().min(1).max(86400).default(1).describe('Most seconds between two writes.'),
    max_buffer_mb: maxBufferMb,
  })
  .describe('Appends records to CSV files in a folder, one file per stream: for archiving and local trials.');
