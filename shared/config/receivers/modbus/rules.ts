/**
 * Semantic rules of a `modbus` receiver, and the register arithmetic the agent shares with them
 * (how many registers a data type takes). Pure; reports at the exact json_path to change.
 */
import type { z } from 'zod';
import type { ModbusDataType, ModbusReceiverSchema, ModbusTable } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';

type ModbusReceiver = z.infer<typeof ModbusReceiverSchema>;

const TEMPLATE_PROMPT = '<fill in: ';
/** Columns every record already has: a value must not take their names. */
const RECORD_COLUMNS = new Set(['timestamp', 'capturetime', 'record_id']);
const WIDTH: Record<Exclude<ModbusDataType, 'string'>, number> = {
  bool: 1,
  int16: 1,
  uint16: 1,
  int32: 2,
  uint32: 2,
  float32: 2,
  int64: 4,
  uint64: 4,
  float64: 4,
};
/** The first register number of each table in the 5-digit convention of device manuals (coils: 00001). */
const CONVENTION: Partial<Record<ModbusTable, { first: number; name: string; table: string }>> = {
  holding: { first: 40001, name: '4xxxx', table: 'holding register' },
  input: { first: 30001, name: '3xxxx', table: 'input register' },
  discrete: { first: 10001, name: '1xxxx', table: 'discrete input' },
};

/** True for tables of single bits (coils, discrete inputs), false for 16-bit register tables. */
export function isBitTable(table: ModbusTable): boolean {
  return table === 'coil' || table === 'discrete';
}

/** Registers (or bits, in a bit table) one value occupies. */
export function registerCount(register: { table: ModbusTable; data_type: ModbusDataType; length?: number | undefined }): number {
  if (isBitTable(register.table)) return 1;
  return register.data_type === 'string' ? (register.length ?? 1) : WIDTH[register.data_type];
}

/** The 4xxxx/3xxxx/1xxxx warning: the register number of a manual written where the 0-based address belongs. */
export function conventionalAddressHint(table: ModbusTable, address: number): string | undefined {
  const convention = CONVENTION[table];
  if (!convention || address < convention.first || address > convention.first + 9998) return undefined;
  const meant = address - convention.first;
  return `${address} looks like ${convention.table} number ${address} of the ${convention.name} convention of device manuals, whose first register is ${convention.first}. address is the 0-based protocol address: ${convention.first} is address 0, so ${address} is address ${meant}. Write ${meant} if the manual lists ${address}; keep ${address} only if the device really has an address that high.`;
}

function registerViolations(register: ModbusReceiver['streams'][number]['modbus_registers'][number], path: JsonPath): Violation[] {
  const out: Violation[] = [];
  const bits = isBitTable(register.table);
  if (bits && register.data_type !== 'bool')
    out.push(error([...path, 'data_type'], say('modbus.single_bit_data_type_bool', 'A {table} is a single bit: its data_type is bool, not {data_type}. Numbers live in holding or input registers.', { table: register.table, data_type: register.data_type })));
  if (register.bit !== undefined && bits) out.push(error([...path, 'bit'], say('modbus.bit_picks_bit_holding', 'bit picks one bit of a holding or input register; a {table} is already a single bit. Remove bit.', { table: register.table })));
  else if (register.bit !== undefined && register.data_type !== 'bool') out.push(error([...path, 'bit'], say('modbus.bit_reads_bit_bool', 'bit reads one bit as a bool: set data_type to bool, or remove bit to read the {data_type}.', { data_type: register.data_type })));
  if (register.data_type === 'string' && register.length === undefined)
    out.push(error([...path, 'length'], say('modbus.string_needs_length_number', 'A string needs length: the number of registers it takes (two characters each), e.g. 4 for 8 characters.')));
  if (register.data_type !== 'string' && register.length !== undefined)
    out.push(warning([...path, 'length'], say('modbus.length_counts_registers_string', 'length counts the registers of a string; a {data_type} has a fixed size. Remove length.', { data_type: register.data_type })));
  if (register.byte_order !== 'ABCD' && (bits || register.data_type === 'string' || WIDTH[register.data_type] === 1))
    out.push(warning([...path, 'byte_order'], say('modbus.byte_order_arranges_registers_bit', 'byte_order arranges the registers of 32- and 64-bit values; it has no effect on a {data_type}.', { data_type: register.data_type })));
  if ((register.data_type === 'bool' || register.data_type === 'string') && (register.scale !== 1 || register.offset !== 0))
    out.push(error([...path, register.scale !== 1 ? 'scale' : 'offset'], say('modbus.scale_offset_apply_numbers', 'scale and offset apply to numbers, not to a {data_type}.', { data_type: register.data_type })));
  const last = register.address + registerCount(register) - 1;
  if (last > 65535) out.push(error([...path, 'address'], say('modbus.address_takes_registers_would', 'The {data_type} at address {address} takes {registerCount} registers and would end at {last}, beyond the last address 65535.', { data_type: register.data_type, address: register.address, registerCount: registerCount(register), last })));
  const hint = conventionalAddressHint(register.table, register.address);
  if (hint) out.push(warning([...path, 'address'], say('modbus.address_convention', '{text}', { text: hint, address: register.address })));
  return out;
}

export function modbusReceiverViolations(receiver: ModbusReceiver, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  receiver.streams.forEach((stream, j) => {
    const registersPath: JsonPath = [...base, 'streams', j, 'modbus_registers'];
    const columns = new Map<string, number>();
    stream.modbus_registers.forEach((register, k) => {
      const path: JsonPath = [...registersPath, k];
      out.push(...registerViolations(register, path));
      if (register.exportname.startsWith(TEMPLATE_PROMPT)) return;
      const first = columns.get(register.exportname);
      if (first !== undefined) out.push(error([...path, 'exportname'], say('modbus.column_name_already_used', 'The column name "{exportname}" is already used by value {first} of this stream.', { exportname: register.exportname, first: first + 1 })));
      else columns.set(register.exportname, k);
      if (RECORD_COLUMNS.has(register.exportname)) out.push(error([...path, 'exportname'], say('modbus.column_every_record_already', '"{exportname}" is a column every record already has. Choose another column name.', { exportname: register.exportname })));
    });
  });
  if (receiver.connections.length > 1)
    out.push(warning([...base, 'connections', 1], say('modbus.modbus_receiver_reads_device', 'A modbus receiver reads from one device or gateway: only the first connection is used. Add a receiver per device or gateway.')));
  return out;
}
