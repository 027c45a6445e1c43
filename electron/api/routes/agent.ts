import type { AgentStatus } from '../../../shared/api/resources.js';
import type { AgentRuntime } from '../../agent/index.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { Handlers, Reply } from '../handler-types.js';

async function transition(runtime: AgentRuntime, operation: () => Promise<AgentStatus>): Promise<Reply> {
  const state = await operation();
  if (state !== 'failed') return { response: state };
  return { success: false, status: 500, response: 'failed', errorText: runtime.lastFailure() ?? 'The agent failed; see agent_core.log.' };
}

export const agentRoutes = {
  startAgent: ({ runtime }) => transition(runtime, () => runtime.start()),
  stopAgent: ({ runtime }) => transition(runtime, () => runtime.stop()),
  restartAgent: ({ runtime }) => transition(runtime, () => runtime.restart()),
} satisfies Partial<Handlers<RouteId>>;
