/**
 * The component types this build can run: one registry line each. Adding a protocol or transmit
 * type adds a folder and a line here, nothing else.
 */
import { CsvTransmit } from './transmits/csv/csv-transmit.js';
import { RemoteDataPostTransmit } from './transmits/remotedatapost/remotedatapost-transmit.js';
import { LocalfileReceiver } from './receivers/localfile/localfile-receiver.js';
import { OpcuaComponent } from './receivers/opcua/index.js';
import { SmbReceiver } from './receivers/smb/smb-receiver.js';
import { SqlReceiver } from './receivers/sql/index.js';
import { ComponentRegistry } from './supervisor/component.js';
import { createTransform } from './transforms/index.js';
import type { StorageHealth } from './storage/storage-health.js';
import type { ParseWorkerPool } from './receivers/file-source/parse-worker-pool.js';
import type { WritePolicy } from './storage/write-policy.js';

/** What the agent shares with the components it runs, besides their per-component context. */
export interface AgentServices {
  /** Where writes fail for lack of space (file receivers, csv output report here). */
  storage: StorageHealth;
  /** The parse threads every file receiver shares (started with the first, closed with the agent). */
  parseWorkers: ParseWorkerPool;
  /** Where transmits may write files (the data directory and the operator's --allow-write folders). */
  writePolicy: WritePolicy;
}

export function builtInComponents(services: AgentServices): ComponentRegistry {
  const registry = new ComponentRegistry()
    .register('Receiver', 'localfile', (config: ConstructorParameters<typeof LocalfileReceiver>[0], context) => new LocalfileReceiver(config, context, services))
    .register('Receiver', 'opcua', (config: ConstructorParameters<typeof OpcuaComponent>[0], context) => new OpcuaComponent(config, context))
    .register('Receiver', 'smb', (config: ConstructorParameters<typeof SmbReceiver>[0], context) => new SmbReceiver(config, context, services))
    .register('Receiver', 'sql', (config: ConstructorParameters<typeof SqlReceiver>[0], context) => new SqlReceiver(config, context))
    .register('Transmit', 'csv', (config: ConstructorParameters<typeof CsvTransmit>[0], context) => new CsvTransmit(config, context, services))
    .register('Transmit', 'remotedatapost', (config: ConstructorParameters<typeof RemoteDataPostTransmit>[0], context) => new RemoteDataPostTransmit(config, context));
  for (const type of ['convert_timestamps', 'rename', 'filter', 'checksum_record'])
    registry.registerTransform(type, (config) => createTransform(config as Parameters<typeof createTransform>[0]));
  return registry;
}
