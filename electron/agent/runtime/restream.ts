import type { RestreamRequest } from '../../../shared/api/resources.js';
import type { Logger } from '../logging/logger.js';
import type { AgentStore } from '../store/agent-store.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { AgentError } from '../errors/agent-error.js';
import { type ConfiguredStream, unconfigured } from './configured-streams.js';

/**
 * A restream that names something not configured, or that failed. Nothing was restreamed. The spec
 * answers both with HTTP 500 (agent-management-api.md, endpoint 15): the kind is `failed`.
 */
export class RestreamError extends AgentError {
  constructor(message: string) {
    super('failed', message);
  }
}

export interface RestreamContext {
  configured: readonly ConfiguredStream[];
  /** Running receivers forget and read again at once; a stopped agent just forgets. */
  running: boolean;
  supervisor: Supervisor;
  store: AgentStore;
  log: Logger;
}

/** Forgets read progress of the named streams so that their data is read and sent again; says what happens. */
export async function restreamStreams(request: RestreamRequest, context: RestreamContext): Promise<string> {
  const unknown = unconfigured(request, context.configured);
  if (unknown !== undefined) throw new RestreamError(`Nothing was restreamed: not configured: ${unknown}.`);
  const done: string[] = [];
  for (const [receiver, streams] of Object.entries(request)) {
    try {
      if (context.running) await context.supervisor.restream(receiver, streams, true);
      else context.store.purge(receiver, streams);
    } catch (cause) {
      throw new RestreamError(`Restream of receiver "${receiver}" failed: ${(cause as Error).message}`);
    }
    done.push(`${receiver}: ${streams.map((s) => `${s.asset}:${s.stream_type}`).join(', ')}`);
  }
  context.log.info(`Restream requested for ${done.join('; ')}`);
  const count = Object.values(request).reduce((n, list) => n + list.length, 0);
  const what = `${count} stream${count === 1 ? '' : 's'} (${done.join('; ')})`;
  return context.running
    ? `Restream accepted for ${what}: their data is being read again from the start and sent again.`
    : `Restream accepted for ${what}: the agent is stopped; their data is read again from the start when it starts.`;
}
