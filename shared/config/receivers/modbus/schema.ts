/** The modbus receiver's configuration: registers and bits of Modbus TCP devices, read every poll_interval. */
import { z } from 'zod';
import { name, receiverCommon } from '../../receiver-parts.js';
import { streamIdentity } from '../../schema-parts.js';

export const MODBUS_TABLES = ['holding', 'input', 'coil', 'discrete'] as const;
export const MODBUS_DATA_TYPES = ['bool', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64', 'string'] as const;
export const MODBUS_BYTE_ORDERS = ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const;

export type ModbusTable = (typeof MODBUS_TABLES)[number];
export type ModbusDataType = (typeof MODBUS_DATA_TYPES)[number];
export type ModbusByteOrder = (typeof MODBUS_BYTE_ORDERS)[number];

export const ModbusRegisterSchema = z.strictObject({
  exportname: name('exportname').describe('Column name of this value in the records.'),
  table: z
    .enum(MODBUS_TABLES)
    .describe('Where the value lives: holding (holding registers, function 3; the 4xxxx registers of a manual), input (input registers, function 4; 3xxxx), coil (coils, function 1; 0xxxx) or discrete (discrete inputs, function 2; 1xxxx).'),
  address: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .describe('0-based protocol address of the (first) register or bit, 0..65535. A manual that lists holding register 40001 means address 0: subtract 40001 (30001 for input registers, 10001 for discrete inputs, 1 for coils).'),
  data_type: z
    .enum(MODBUS_DATA_TYPES)
    .default('uint16')
    .describe('How the registers are read: bool (a coil or discrete input, or one bit of a register with bit), int16/uint16 (1 register), int32/uint32/float32 (2), int64/uint64/float64 (4), string (length registers of two ASCII characters). Default uint16.'),
  bit: z.number().int().min(0).max(15).optional().describe('With data_type bool on a holding or input register: the bit read, 0 = least significant. Without it, bool of a register is true when the register is not 0.'),
  length: z.number().int().min(1).max(125).optional().describe('With data_type string: registers read, two ASCII characters each (high byte first); trailing NUL and spaces are trimmed.'),
  byte_order: z
    .enum(MODBUS_BYTE_ORDERS)
    .default('ABCD')
    .describe('Order of the bytes of 32- and 64-bit values: ABCD (default, big-endian, first register most significant), CDAB (registers in reverse order, big-endian in each: "word swap"), BADC (registers in order, bytes swapped in each), DCBA (fully little-endian). A float32 read as 2.35e-41 or 1.2e+38 usually needs CDAB.'),
  scale: z.number().default(1).describe('Multiplier of the raw number: value = raw × scale + offset, e.g. 0.1 for a register holding tenths. Default 1.'),
  offset: z.number().default(0).describe('Added after scale: value = raw × scale + offset. Default 0.'),
});

export const ModbusStreamSchema = z.strictObject({
  ...streamIdentity,
  unit_id: z.number().int().min(0).max(255).default(1).describe('Modbus unit id (slave id) of the device this stream reads, 0..255, default 1. Behind a gateway each device has its own unit id; a device reached directly often answers to any, or to 1 or 255.'),
  modbus_registers: z.array(ModbusRegisterSchema).min(1).describe('Values read for this stream: one column each, one record per poll.'),
});

export const ModbusConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional().describe('Optional name of this connection, for your own reference.'),
  host: name('host').describe('Modbus TCP device or gateway name or IP address.'),
  port: z.number().int().min(1).max(65535).default(502).describe('Modbus TCP port, default 502.'),
  timeout: z.number().positive().max(600).default(3).describe('Seconds to wait for the device to accept the connection and to answer each request (default 3).'),
});

export const ModbusReceiverSchema = z
  .strictObject({
    ...receiverCommon,
    protocol: z.literal('modbus'),
    connections: z
      .array(ModbusConnectionSchema)
      .min(1, 'a modbus receiver needs at least 1 connection')
      .describe('The device or gateway to read: one connection (a receiver per device or gateway); its requests go one at a time.'),
    streams: z.array(ModbusStreamSchema).min(1, 'a modbus receiver needs at least 1 stream').describe('One record per stream and poll, from one unit id.'),
  })
  .describe('Reads registers and bits of Modbus TCP devices (directly or behind a gateway) every poll_interval.');
