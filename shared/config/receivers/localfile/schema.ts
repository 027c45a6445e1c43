/** The localfile receiver's configuration: files that machines drop into a local folder. */
import { z } from 'zod';
import { deleteCompleted, FileStreamSchema, fileOrder, ParserSchema, receiverCommon } from '../../receiver-parts.js';

export const LocalfileConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  root_path: z.string().min(1).optional().describe('Absolute path of the folder the machines write to.'),
  data_directory: z.string().min(1).optional().describe('Same as root_path (the form used by templates).'),
  retrieve_ordered_files: z.boolean().optional().describe('Product family option for S3 sources only; has no effect here (validation warns).'),
});

export const LocalfileReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('localfile'),
    delete_completed: deleteCompleted,
    ...fileOrder,
    connections: z.array(LocalfileConnectionSchema).min(1, 'a localfile receiver needs at least 1 connection'),
    streams: z.array(FileStreamSchema).min(1, 'a localfile receiver needs at least 1 stream'),
    parsers: z.array(ParserSchema).min(1, 'a localfile receiver needs at least 1 parser'),
  })
  .describe('Reads files that machines drop into a local folder.');

