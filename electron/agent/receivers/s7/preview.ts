/** The s7 preview: the read plan once, decoded (s7-preview.ts). */
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewS7 } from './s7-preview.js';
import type { S7ReceiverConfig } from './poll.js';

const preview: ReceiverPreview<S7ReceiverConfig> = (receiver, request) => previewS7(receiver, { nowMicros: request.nowMicros });
export default preview;
