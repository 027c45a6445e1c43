/**
 * The component types this build can run: one registry line each. Adding a protocol or transmit
 * type adds a folder and a line here, nothing else.
 */
import { CsvTransmit } from './transmits/csv/csv-transmit.js';
import { MqttTransmit } from './transmits/mqtt/index.js';
import { RemoteDataPostTransmit } from './transmits/remotedatapost/remotedatapost-transmit.js';
import { LocalfileReceiver } from './receivers/localfile/localfile-receiver.js';
import { MqttReceiver } from './receivers/mqtt/index.js';
import { OpcuaComponent } from './receivers/opcua/index.js';
import { SmbReceiver } from './receivers/smb/smb-receiver.js';
import { SqlReceiver } from './receivers/sql/index.js';
import { ComponentRegistry } from './supervisor/component.js';
import { createTransform } from './transforms/index.js';

export function builtInComponents(): ComponentRegistry {
  const registry = new ComponentRegistry()
    .register('Receiver', 'localfile', (config: ConstructorParameters<typeof LocalfileReceiver>[0], context) => new LocalfileReceiver(config, context))
    .register('Receiver', 'opcua', (config: ConstructorParameters<typeof OpcuaComponent>[0], context) => new OpcuaComponent(config, context))
    .register('Receiver', 'smb', (config: ConstructorParameters<typeof SmbReceiver>[0], context) => new SmbReceiver(config, context))
    .register('Receiver', 'mqtt', (config: ConstructorParameters<typeof MqttReceiver>[0], context) => new MqttReceiver(config, context))
    .register('Receiver', 'sql', (config: ConstructorParameters<typeof SqlReceiver>[0], context) => new SqlReceiver(config, context))
    .register('Transmit', 'mqtt', (config: ConstructorParameters<typeof MqttTransmit>[0], context) => new MqttTransmit(config, context))
    .register('Transmit', 'csv', (config: ConstructorParameters<typeof CsvTransmit>[0], context) => new CsvTransmit(config, context))
    .register('Transmit', 'remotedatapost', (config: ConstructorParameters<typeof RemoteDataPostTransmit>[0], context) => new RemoteDataPostTransmit(config, context));
  for (const type of ['convert_timestamps', 'rename', 'filter', 'checksum_record'])
    registry.registerTransform(type, (config) => createTransform(config as Parameters<typeof createTransform>[0]));
  return registry;
}
