/** The localfile receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { FileStreamSchema } from '../../receiver-parts.js';
import { localfileTemplate } from './template.js';
import { LocalfileReceiverSchema } from './schema.js';
import { localfileReceiverViolations } from './rules.js';

export const localfileReceiver = receiverDescriptor({
  protocol: 'localfile',
  schema: LocalfileReceiverSchema,
  rules: (receiver, base, checks) => localfileReceiverViolations(receiver, base, checks),
  template: localfileTemplate,
  files: { share: false, folderField: (connection) => (connection.root_path !== undefined ? 'root_path' : 'data_directory') },
  docs: 'docs/data-path.md',
  meta: {
    order: 0,
    id: 'localfile_csv',
    name: 'Local files (CSV)',
    template: { delete_completed: false },
    stream: { schema: FileStreamSchema, template: { file_filter: ['*.csv'] } },
  },
});
