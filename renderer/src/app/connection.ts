import type { Status } from '../../../shared/api/resources.js';
import { errorText, useStatus } from '../api/index.js';

export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'connected'; status: Status; updatedAt: number }
  /** The last status request failed; `status` is what was last known (shown greyed), if anything. */
  | { kind: 'unreachable'; reason: string; status: Status | undefined; updatedAt: number | undefined };

/**
 * Whether the console can trust what it shows: derived from the status poll (every 3 s), which
 * every page runs through the shell. One failed poll is enough to say so; the next good one ends it.
 */
export function useConnection(): ConnectionState {
  const status = useStatus();
  if (status.isError) return { kind: 'unreachable', reason: errorText(status.error), status: status.data, updatedAt: status.data ? status.dataUpdatedAt : undefined };
  if (!status.data) return { kind: 'connecting' };
  return { kind: 'connected', status: status.data, updatedAt: status.dataUpdatedAt };
}
