/** The mqtt receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { serverFields, tlsFields } from '../../secret-fields.js';
import { mqttTemplate } from './template.js';
import { MqttReceiverSchema } from './schema.js';
import { mqttReceiverViolations } from '../../mqtt-rules.js';

export const mqttReceiver = receiverDescriptor({
  protocol: 'mqtt',
  schema: MqttReceiverSchema,
  rules: (receiver, base, checks) => mqttReceiverViolations(receiver, base, checks),
  template: mqttTemplate,
  secrets: [{ secret: 'password', target: 'the server', fields: [...serverFields(), ...tlsFields()] }],
  docs: 'docs/mqtt.md',
});
