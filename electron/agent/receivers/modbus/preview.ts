/** The modbus preview: the read plan once, decoded (modbus-preview.ts). */
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewModbus } from './modbus-preview.js';
import type { ModbusReceiverConfig } from './poll.js';

const preview: ReceiverPreview<ModbusReceiverConfig> = (receiver, request) => previewModbus(receiver, { nowMicros: request.nowMicros });
export default preview;
