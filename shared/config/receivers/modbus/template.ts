/** The modbus receiver's templates: the receiver the editor inserts, and what a complete configuration adds. */
import type { z } from 'zod';
import type { ReceiverTemplate } from '../descriptor.js';
import type { ModbusReceiverSchema } from './schema.js';
import { prompt, stream } from '../../template-parts.js';

export const receiver = {
  data_receiver_name: 'modbus_device',
  protocol: 'modbus',
  poll_interval: 1,
  connections: [{ host: prompt('Modbus TCP device or gateway name or IP address'), port: 502, timeout: 3 }],
  streams: [
    {
      ...stream,
      unit_id: 1,
      modbus_registers: [
        { exportname: 'temperature', table: 'holding', address: 0, data_type: 'float32', byte_order: 'ABCD' },
        { exportname: 'counter', table: 'input', address: 10, data_type: 'uint32', byte_order: 'ABCD' },
        { exportname: 'running', table: 'coil', address: 0, data_type: 'bool' },
      ],
    },
  ],
} as const satisfies z.input<typeof ModbusReceiverSchema>;

export const modbusTemplate: ReceiverTemplate = {
  title: 'Modbus TCP',
  description: 'Registers and bits of a Modbus TCP device or gateway, read in planned requests every second.',
  receiver,
};
