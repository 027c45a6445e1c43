import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';
import { recordsPerMinute } from './records-per-minute.js';

/** The desk's agent polls each agent every 5 s; the list is read as often. */
export const FLEET_REFRESH_MS = 5000;

export function useFleet() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.fleet(), queryFn: () => api.fleet(), refetchInterval: FLEET_REFRESH_MS, placeholderData: keepPreviousData });
}

/** Records read per minute over the last hour by one agent (null: this one): the sparkline of its row. */
export function useAgentRecordsPerMinute(agent: string | null, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.fleetHistory(agent),
    enabled,
    refetchInterval: 60_000,
    retry: false,
    queryFn: async () => recordsPerMinute(await api.historyOf(agent, 60), 60),
  });
}

function useFleetMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  // Exact: the rows' sparklines live under the same key prefix; refetching them would ask a removed
  // agent (a 404 through the proxy) and every agent again for an hour of history.
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.fleet(), exact: true }) });
}

export function useAddFleetAgent() {
  const api = useApi();
  return useFleetMutation((agent: { name: string; url: string; token: string; fingerprint?: string }) => api.addFleetAgent(agent));
}

export function useRemoveFleetAgent() {
  const api = useApi();
  return useFleetMutation((name: string) => api.removeFleetAgent(name));
}

export function usePinFleetAgent() {
  const api = useApi();
  return useFleetMutation(({ name, fingerprint }: { name: string; fingerprint: string }) => api.pinFleetAgent(name, fingerprint));
}
