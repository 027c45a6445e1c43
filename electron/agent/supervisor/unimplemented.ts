import type { ComponentType } from '../../../shared/api/resources.js';
import type { AgentComponent, ComponentContext } from '../components/contract.js';
import { say, type AgentMessage } from '../../../shared/config/message.js';


/**
 * Stands in for a component type this build cannot run yet. It does nothing and says so: its service
 * reports `unknown` and each of its streams carries a warning marker. Nothing pretends to run.
 */
export class UnimplementedComponent implements AgentComponent {
  constructor(
    readonly kind: ComponentType,
    readonly name: string,
    readonly type: string,
    private readonly context: ComponentContext,
  ) {}

  get message(): string {
    return this.said.text;
  }

  private get said(): AgentMessage {
    const { type, name } = this;
    if (this.kind === 'Receiver') return say('component.unavailable_receiver', 'The {type} receiver "{name}" is not available in this build of Tributary yet: this stream is not read.', { type, name });
    if (this.kind === 'Transform') return say('component.unavailable_transform', 'The {type} transform "{name}" is not available in this build of Tributary yet: records pass through unchanged.', { type, name });
    return say('component.unavailable_transmit', 'The {type} transmit "{name}" is not available in this build of Tributary yet: records for it are kept in the outbox until a build that has it runs.', { type, name });
  }

  async start(): Promise<void> {
    this.context.markers.raise(this.context.streams, 'warning', 'not_implemented', this.said);
    this.context.logger.warn(this.message);
  }

  async stop(): Promise<void> {}

  status() {
    return 'unknown' as const;
  }

  async purge(): Promise<void> {
    // Nothing was read, so there is no progress to forget.
  }
}
