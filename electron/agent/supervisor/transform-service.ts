import type { AgentComponent } from '../components/contract.js';

/** The service face of a transform: the pipeline runs it; this reports whether it is in service. */
export class TransformService implements AgentComponent {
  readonly kind = 'Transform' as const;
  private running = false;

  constructor(readonly name: string) {}

  async start(): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }

  status() {
    return this.running ? ('running' as const) : ('stopped' as const);
  }
}
