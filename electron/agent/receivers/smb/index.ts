/** The smb receiver (`protocol: "smb"`): CSV drops on Windows shares. See docs/smb.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type SmbConfig, SmbReceiver } from './smb-receiver.js';

const createSmbReceiver: ComponentFactory<SmbConfig> = (config, context) => new SmbReceiver(config, context, context.services);
export default createSmbReceiver;
