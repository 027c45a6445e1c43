/** The mqtt preview. A broker keeps no history (retained messages aside): it listens for a few seconds. */
import type { ReceiverPreview } from '../../components/receiver-preview.js';
import { previewMqtt } from './mqtt-preview.js';
import type { MqttReceiverConfig } from './mqtt-receiver.js';

const preview: ReceiverPreview<MqttReceiverConfig> = (receiver, request) =>
  previewMqtt(receiver, { rows: request.rows, logger: request.logger });
export default preview;
