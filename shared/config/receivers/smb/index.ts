/** The smb receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { smbTemplate } from './template.js';
import { SmbReceiverSchema } from './schema.js';
import { smbConnectionViolations } from './rules.js';

export const smbReceiver = receiverDescriptor({
  protocol: 'smb',
  schema: SmbReceiverSchema,
  rules: (receiver, base, checks) => smbConnectionViolations(receiver.connections, base, checks.isPrompt),
  template: smbTemplate,
  docs: 'docs/smb.md',
});
