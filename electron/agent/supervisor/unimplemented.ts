import type { ComponentType } from '../../../shared/api/resources.js';
import type { AgentComponent, ComponentContext } from '../components/contract.js';

const KIND_WORD: Record<ComponentType, string> = { Receiver: 'receiver', Transform: 'transform', Transmit: 'transmit' };

/**
 * Stands in for a component type this build cannot run yet. It does nothing and says so: its service
 * reports `unknown` and each of its streams carries a warning marker. Nothing pretends to run.
 */
export class UnimplementedComponent implements AgentComponent {
  constructor(
    readonly kind: ComponentType,
    readonly name: string,
    private readonly type: string,
    private readonly context: ComponentContext,
  ) {}

  get message(): string {
    const effect =
      this.kind === 'Receiver'
        ? 'this stream is not read'
        : this.kind === 'Transform'
          ? 'records pass through unchanged'
          : 'records for it are kept in the outbox until a build that has it runs';
    return `The ${this.type} ${KIND_WORD[this.kind]} "${this.name}" is not available in this build of Tributary yet: ${effect}.`;
  }

  async start(): Promise<void> {
    this.context.markers.raise(this.context.streams, 'warning', 'not_implemented', this.message);
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
