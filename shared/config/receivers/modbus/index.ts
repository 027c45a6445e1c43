/** The modbus receiver protocol, as the configuration code sees it (registered in receivers/index.ts). */
import { receiverDescriptor } from '../descriptor.js';
import { modbusTemplate } from './template.js';
import { ModbusReceiverSchema } from './schema.js';
import { modbusReceiverViolations } from './rules.js';

export const modbusReceiver = receiverDescriptor({
  protocol: 'modbus',
  schema: ModbusReceiverSchema,
  rules: (receiver, base) => modbusReceiverViolations(receiver, base),
  template: modbusTemplate,
  docs: 'docs/modbus.md',
});
