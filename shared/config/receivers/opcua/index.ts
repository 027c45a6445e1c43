/** The opcua receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { opcuaSecurityFields, serverFields } from '../../secret-fields.js';
import { opcuaTemplate } from './template.js';
import { OpcuaReceiverSchema, OpcuaStreamSchema } from './schema.js';
import { opcuaReceiverViolations } from './rules.js';

export const opcuaReceiver = receiverDescriptor({
  protocol: 'opcua',
  schema: OpcuaReceiverSchema,
  rules: (receiver, base) => opcuaReceiverViolations(receiver, base),
  template: opcuaTemplate,
  secrets: [{ secret: 'password', target: 'the server', fields: [...serverFields(), ...opcuaSecurityFields()] }],
  docs: 'docs/opcua.md',
  meta: {
    order: 3,
    name: 'OPC UA server',
    template: { read_mode: 'subscription', sampling_interval_ms: 1000, queue_size: 10 },
    stream: {
      schema: OpcuaStreamSchema,
      template: { opcua_tags: [{ name: 'ns=2;s=Line1.Temperature', exportname: 'temperature' }] },
    },
  },
});
