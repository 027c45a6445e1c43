/** Modbus TCP receiver (`protocol: "modbus"`): registers and bits of devices and gateways. See docs/modbus.md. */
import type { ComponentFactory } from '../../components/contract.js';
import { type ModbusReceiverConfig, ModbusReceiver } from './modbus-receiver.js';

export { ModbusReceiver };

const createModbusReceiver: ComponentFactory<ModbusReceiverConfig> = (config, context) => new ModbusReceiver(config, context);
export default createModbusReceiver;
