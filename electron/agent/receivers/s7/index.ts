/** Siemens S7 receiver (`protocol: "s7"`): data blocks and M, I, Q areas over S7comm. See docs/s7.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type S7ReceiverConfig, S7Receiver } from './s7-receiver.js';

export { S7Receiver };

const createS7Receiver: ComponentFactory<S7ReceiverConfig> = (config, context) => new S7Receiver(config, context);
export default createS7Receiver;
