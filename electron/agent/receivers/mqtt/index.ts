export { MqttReceiver, type MqttReceiverConfig } from './mqtt-receiver.js';
