/**
 * The OPC UA receiver and browsing for the console's tag picker. node-opcua is large (seconds to
 * load on a busy edge PC): it is loaded on first use, so an agent without OPC UA receivers starts
 * as fast as before and never loads it.
 */
import type { ServiceStatus } from '../../../../shared/api/resources.js';
import type { AgentComponent, ComponentContext, ComponentFactory, StreamKey } from '../../components/contract.js';
import type { BrowseOptions, OpcuaBrowseNode } from './opcua-browse.js';
import type { OpcuaStreamPreview } from './opcua-preview.js';
import type { OpcuaReceiver, OpcuaReceiverConfig } from './opcua-receiver.js';

export type { OpcuaBrowseNode, OpcuaReceiverConfig, OpcuaStreamPreview };

/** The registered component: loads the receiver (and node-opcua) when it starts. */
export class OpcuaComponent implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private receiver: OpcuaReceiver | undefined;

  constructor(
    private readonly config: OpcuaReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
  }

  async start(): Promise<void> {
    if (!this.receiver) {
      const { OpcuaReceiver } = await import('./opcua-receiver.js');
      this.receiver = new OpcuaReceiver(this.config, this.context);
    }
    await this.receiver.start();
  }

  async stop(): Promise<void> {
    await this.receiver?.stop();
  }

  status(): ServiceStatus {
    return this.receiver?.status() ?? 'stopped';
  }

  async purge(streams: readonly StreamKey[]): Promise<void> {
    await this.receiver?.purge(streams);
  }
}

const createOpcuaReceiver: ComponentFactory<OpcuaReceiverConfig> = (config, context) => new OpcuaComponent(config, context);
export default createOpcuaReceiver;

/** See opcua-browse.ts. */
export async function browseOpcua(savedConfig: unknown, receiverName: string, nodeId: string | undefined, options: BrowseOptions): Promise<OpcuaBrowseNode[]> {
  const browse = await import('./opcua-browse.js');
  return browse.browseOpcua(savedConfig, receiverName, nodeId, options);
}
