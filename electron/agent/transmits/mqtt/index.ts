export { MqttTransmit } from './mqtt-transmit.js';
