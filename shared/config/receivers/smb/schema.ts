/** The smb receiver's configuration: files on a Windows network share. */
import { z } from 'zod';
import { deleteCompleted, FileStreamSchema, fileOrder, name, ParserSchema, receiverCommon } from '../../receiver-parts.js';

export const SmbConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional(),
  host: name('host').describe('File server name or IP address.'),
  port: z.number().int().min(1).max(65535).default(445).describe('SMB port, default 445.'),
  domain: z.string().optional().describe('Windows domain of the user, if any.'),
  username: name('username'),
  password: z.string().describe('Password; shown as ******** when read back.'),
  shared_folder: name('shared_folder').describe('Share name and optional sub-path, e.g. machines/line1.'),
  retrieve_ordered_files: z.boolean().optional().describe('Product family option for S3 sources only; has no effect here (validation warns).'),
});

export const SmbReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('smb'),
    delete_completed: deleteCompleted,
    ...fileOrder,
    connections: z.array(SmbConnectionSchema).min(1, 'an smb receiver needs at least 1 connection'),
    streams: z.array(FileStreamSchema).min(1, 'an smb receiver needs at least 1 stream'),
    parsers: z.array(ParserSchema).min(1, 'an smb receiver needs at least 1 parser'),
  })
  .describe('Reads files from a Windows network share (SMB2/3).');

