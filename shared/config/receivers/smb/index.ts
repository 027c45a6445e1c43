/** The smb receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { FileStreamSchema } from '../../receiver-parts.js';
import { hostName, serverFields } from '../../secret-fields.js';
import { smbTemplate } from './template.js';
import { SmbReceiverSchema } from './schema.js';
import { smbConnectionViolations, smbOrderViolations } from './rules.js';

type Json = Record<string, unknown>;

/** The share of `share/sub/folder`. */
function shareOf(holder: Json): unknown {
  const folder = holder.shared_folder;
  if (typeof folder !== 'string') return folder;
  return folder.trim().replace(/^[\\/]+/, '').split(/[\\/]/)[0]!.toLowerCase();
}

export const smbReceiver = receiverDescriptor({
  protocol: 'smb',
  schema: SmbReceiverSchema,
  rules: (receiver, base, checks) => [
    ...smbConnectionViolations(receiver.connections, base, checks.isPrompt),
    ...smbOrderViolations(receiver, base),
  ],
  template: smbTemplate,
  secrets: [
    {
      secret: 'password',
      target: 'the server',
      // Moving within a share keeps its password, another share does not.
      fields: [...serverFields(445), { name: 'domain', read: (h) => hostName(h.domain) }, { name: 'shared_folder', read: shareOf }],
    },
  ],
  files: { share: true, folderField: () => 'shared_folder' },
  docs: 'docs/smb.md',
  meta: {
    order: 2,
    id: 'smb_csv',
    name: 'Windows share (CSV)',
    template: { delete_completed: false },
    stream: { schema: FileStreamSchema, template: { file_filter: ['*.csv'] } },
  },
});
