import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../testing/config-fixtures.js';
import { validateConfiguration } from '../../validate.js';
import { templateFor } from '../../templates.js';

/** The receiver of issue 52, as a plant engineer writes it. */
const issueExample = () => ({
  data_receiver_name: 'line2_modbus',
  protocol: 'modbus',
  poll_interval: 1,
  connections: [{ host: '10.0.3.21', port: 502, timeout: 3 }],
  streams: [
    {
      asset: 'Press_7',
      stream_type: 'cycle',
      unit_id: 1,
      modbus_registers: [
        { exportname: 'temp', table: 'holding', address: 0, data_type: 'float32' },
        { exportname: 'total', table: 'input', address: 10, data_type: 'uint32', byte_order: 'CDAB' },
        { exportname: 'energy', table: 'input', address: 12, data_type: 'int32', scale: 0.1 },
        { exportname: 'alarm', table: 'holding', address: 8, data_type: 'bool', bit: 3 },
        { exportname: 'recipe', table: 'holding', address: 20, data_type: 'string', length: 4 },
        { exportname: 'running', table: 'coil', address: 0, data_type: 'bool' },
      ] as Record<string, unknown>[],
    },
  ],
});

function violationsOf(receiver: Record<string, unknown>) {
  const doc = structuredClone(specExampleConfiguration()) as Record<string, any>;
  doc.data_receiver.push(receiver);
  return validateConfiguration(doc).violations.filter((v) => v.json_path[1] === 1);
}

function withRegister(register: Record<string, unknown>) {
  const receiver = issueExample();
  receiver.streams[0]!.modbus_registers = [register];
  return violationsOf(receiver);
}

describe('modbus rules', () => {
  it('accepts the issue example as written', () => {
    expect(violationsOf(issueExample())).toEqual([]);
  });

  it('explains a 4xxxx register number written as the address, and 3xxxx for input registers', () => {
    const [holding] = withRegister({ exportname: 'temp', table: 'holding', address: 40001, data_type: 'uint16' });
    expect(holding).toMatchObject({ level: 'warning', json_path: ['data_receiver', 1, 'streams', 0, 'modbus_registers', 0, 'address'] });
    expect(holding!.description).toContain('40001 is address 0');
    expect(withRegister({ exportname: 'v', table: 'input', address: 30011 })[0]!.description).toContain('30011 is address 10');
    expect(withRegister({ exportname: 'v', table: 'holding', address: 39999 })).toEqual([]);
  });

  it('refuses values out of range and types that do not fit the table', () => {
    expect(withRegister({ exportname: 'v', table: 'holding', address: 65536 })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['address']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 65534, data_type: 'float64' })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['address']) });
    expect(withRegister({ exportname: 'v', table: 'coil', address: 0, data_type: 'float32' })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['data_type']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'uint16', bit: 3 })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['bit']) });
    expect(withRegister({ exportname: 'v', table: 'coil', address: 0, data_type: 'bool', bit: 3 })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['bit']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'string' })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['length']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'bool', bit: 0, scale: 2 })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['scale']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'int8' })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['data_type']) });
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, byte_order: 'BACD' })[0]).toMatchObject({ level: 'error', json_path: expect.arrayContaining(['byte_order']) });
  });

  it('warns about settings without effect', () => {
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'int16', byte_order: 'CDAB' })).toEqual([expect.objectContaining({ level: 'warning', json_path: expect.arrayContaining(['byte_order']) })]);
    expect(withRegister({ exportname: 'v', table: 'holding', address: 0, data_type: 'int32', length: 2 })).toEqual([expect.objectContaining({ level: 'warning', json_path: expect.arrayContaining(['length']) })]);
    const twoConnections = issueExample();
    twoConnections.connections.push({ host: 'b', port: 502, timeout: 3 });
    expect(violationsOf(twoConnections)).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 1, 'connections', 1] })]);
  });

  it('refuses a column used twice or named like a record column', () => {
    const receiver = issueExample();
    receiver.streams[0]!.modbus_registers.push({ exportname: 'temp', table: 'holding', address: 30 }, { exportname: 'timestamp', table: 'holding', address: 31 });
    expect(violationsOf(receiver).map((v) => [v.level, v.json_path.slice(-2)])).toEqual([
      ['error', [6, 'exportname']],
      ['error', [7, 'exportname']],
    ]);
  });

  it('offers a template that validates once its prompt is filled in', () => {
    const template = templateFor('modbus');
    expect(template).toBeDefined();
    const receiver = structuredClone((template as any).data_receiver[0]);
    expect(receiver.protocol).toBe('modbus');
    receiver.connections[0].host = '127.0.0.1';
    receiver.streams[0].asset = 'Press_7';
    receiver.streams[0].stream_type = 'cycle';
    expect(violationsOf(receiver)).toEqual([]);
  });
});
