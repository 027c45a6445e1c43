/** The mqtt transmit's templates: JSON records to a unified namespace, and a Sparkplug B edge node. */
import { prompt } from '../../template-parts.js';

export const mqttTransmitTemplate = {
  transmit_name: 'unified_namespace',
  transmit_type: 'mqtt' as const,
  filter_stream: ['*'],
  host: prompt('broker name or IP address'),
  port: 8883,
  tls: true,
  username: prompt('user name'),
  password: prompt('password'),
  topic: `${prompt('enterprise/site/area, e.g. acme/plant1/line1')}/{asset}/{stream_type}`,
  qos: 1 as const,
  message_format: 'record' as const,
  additional_fields: {},
};

/** The mqtt transmit as a Sparkplug B edge node (docs/mqtt.md, Sparkplug B). */
export const sparkplugTransmitTemplate = {
  transmit_name: 'sparkplug_host',
  transmit_type: 'mqtt' as const,
  filter_stream: ['*'],
  host: prompt('broker name or IP address'),
  port: 8883,
  tls: true,
  username: prompt('user name'),
  password: prompt('password'),
  payload_format: 'sparkplug_b' as const,
  group_id: prompt('Sparkplug group id, e.g. Plant1'),
  edge_node_id: prompt('edge node id of this PC, e.g. tributary-line3'),
  qos: 1 as const,
};
