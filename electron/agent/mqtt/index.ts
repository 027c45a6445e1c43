/** Reaching MQTT brokers, shared by the mqtt receiver and the mqtt transmit. */
export { BrokerLink, type LinkEvents, retryDelayMs } from './broker-link.js';
export { type BrokerSettings, brokerUrl, defaultClientId } from './broker-options.js';
export { BROKER_CATEGORIES, brokerProblem, who, type BrokerCategory, type BrokerProblem } from './broker-problems.js';
export { ConnectionMarkers } from './connection-markers.js';
export { DEFERRED_ACK, sendPuback } from './manual-ack.js';
