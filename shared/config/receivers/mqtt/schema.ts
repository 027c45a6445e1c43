/** The mqtt receiver's block (docs/mqtt.md); the broker fields it shares with the transmit are in mqtt-schema.ts. */
import { z } from 'zod';
import { MqttConnectionSchema, MqttStreamSchema } from '../../mqtt-schema.js';

export const MqttReceiverSchema = z
  .strictObject({
    data_receiver_name: z.string().min(1, 'data_receiver_name must not be empty').describe('Unique name; progress is kept under it.'),
    protocol: z.literal('mqtt'),
    connections: z.array(MqttConnectionSchema).min(1, 'an mqtt receiver needs at least 1 connection'),
    streams: z.array(MqttStreamSchema).min(1, 'an mqtt receiver needs at least 1 stream'),
  })
  .describe('Subscribes to topics of an MQTT broker (persistent session, QoS 1).');
