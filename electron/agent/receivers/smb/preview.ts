/** The smb preview: the first records of the first files the streams find (receivers/file-preview/file-preview.ts). */
import type { DataReceiver } from '../../../../shared/config/schema.js';
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewFiles } from '../file-preview/file-preview.js';

const preview: ReceiverPreview<Extract<DataReceiver, { protocol: 'smb' }>> = (receiver, request) =>
  previewFiles(receiver, request.rows, request.nowMicros, request.agentDataDirectory);
export default preview;
