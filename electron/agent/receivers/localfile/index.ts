/** The localfile receiver (`protocol: "localfile"`): CSV drops in local folders. See docs/data-path.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type LocalfileConfig, LocalfileReceiver } from './localfile-receiver.js';

const createLocalfileReceiver: ComponentFactory<LocalfileConfig> = (config, context) => new LocalfileReceiver(config, context, context.services);
export default createLocalfileReceiver;
