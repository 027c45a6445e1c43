/** The mqtt receiver (`protocol: "mqtt"`): persistent subscriptions to brokers. See docs/mqtt.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type MqttReceiverConfig, MqttReceiver } from './mqtt-receiver.js';

export type { MqttReceiverConfig };
const createMqttReceiver: ComponentFactory<MqttReceiverConfig> = (config, context) => new MqttReceiver(config, context);
export default createMqttReceiver;
