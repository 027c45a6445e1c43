/** The mqtt transmit (`transmit_type: "mqtt"`): JSON messages to a broker. See docs/mqtt.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type MqttTransmitConfig, MqttTransmit } from './mqtt-transmit.js';

const createMqttTransmit: ComponentFactory<MqttTransmitConfig> = (config, context) => new MqttTransmit(config, context);
export default createMqttTransmit;
