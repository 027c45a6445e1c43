/** The mqtt receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { MqttReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';

/** The streams of an mqtt receiver, one per payload format the editor offers as a snippet. */
export const MQTT_STREAM_TEMPLATES = {
  json: { ...stream, topic: prompt('topic filter, e.g. plant1/line1/press1/#'), payload_format: 'json' as const, topic_field: 'topic' },
  sparkplug_b: {
    asset: prompt('machine name (the Sparkplug device)'),
    stream_type: prompt('kind of data, e.g. state'),
    topic: prompt('Sparkplug topic, e.g. spBv1.0/Line3/DDATA/edge-9/Mixer_3 (+ and # allowed)'),
    payload_format: 'sparkplug_b' as const,
  },
};

export const receiver = {
  data_receiver_name: 'mqtt_broker',
  protocol: 'mqtt',
  connections: [
    {
      host: prompt('broker name or IP address'),
      port: 8883,
      tls: true,
      username: prompt('user name'),
      password: prompt('password'),
      mqtt_version: '5',
    },
  ],
  streams: [MQTT_STREAM_TEMPLATES.json],
} as const satisfies z.input<typeof MqttReceiverSchema>;

export const mqttTemplate: ReceiverTemplate = {
  title: 'MQTT',
  description: 'JSON or plain-value messages of machine topics on an MQTT broker (persistent session, QoS 1), published as records into a Unified Namespace topic tree.',
  receiver,
  // Machines' topics on a broker, republished as records into a Unified Namespace.
  transmit: 'mqtt' as const,
  streams: MQTT_STREAM_TEMPLATES,
};
