/** The remotedatapost transmit (`transmit_type: "remotedatapost"`): RDP2 uploads. See docs/upload.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type RemoteDataPostConfig, RemoteDataPostTransmit } from './remotedatapost-transmit.js';

const createRemoteDataPostTransmit: ComponentFactory<RemoteDataPostConfig> = (config, context) => new RemoteDataPostTransmit(config, context);
export default createRemoteDataPostTransmit;
