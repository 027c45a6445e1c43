/**
 * TanStack Query hooks: the only way components read or change agent state.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RestreamRequest } from '../../../shared/api/resources.js';
import type { PreviewRequest } from '../../../shared/api/preview.js';
import { useApi } from './api-context.js';
import type { LoadedConfig } from './client.js';
import { queryKeys } from './query-keys.js';
import { appendUsageSample, type UsageSample } from './usage-history.js';

const STATUS_REFRESH_MS = 3000;
const STREAMS_REFRESH_MS = 5000;
/** While a file is read, its progress bar moves at this pace. */
const READING_REFRESH_MS = 1000;
// The current minute grows in the charts as the records come.
const HISTORY_REFRESH_MS = 5000;

export function useStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.status(),
    queryFn: async () => {
      const status = await api.status();
      // The live charts accumulate here so that the history survives page changes.
      queryClient.setQueryData<UsageSample[]>(queryKeys.usageHistory(), (history) => appendUsageSample(history, Date.now(), status.machine_info));
      return status;
    },
    refetchInterval: STATUS_REFRESH_MS,
    // The connection banner relies on this poll: one failure is news at once, not after retries.
    retry: false,
  });
}

/** How often the status is polled (the console says "updated … ago" against it). */
export const STATUS_REFRESH_SECONDS = STATUS_REFRESH_MS / 1000;

export function useUsageHistory(): UsageSample[] {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.usageHistory(),
    queryFn: () => queryClient.getQueryData<UsageSample[]>(queryKeys.usageHistory()) ?? [],
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return data ?? [];
}

export function useAgentAction() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'start' | 'stop' | 'restart') => api.agent(action),
    onSettled: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.status() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.streams() }),
    ]),
  });
}

export function useConfig() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.config(),
    queryFn: () => api.config(),
    // The editor holds the draft; a background refetch must not move the baseline under it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** Server-side validation of a document; keyed by its text, so equal text is validated once. */
export function useValidation(text: string, document: unknown, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.validation(text),
    queryFn: () => api.validate(document),
    enabled,
    staleTime: Infinity,
    gcTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useSaveConfig() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ document, expectedRevision }: { document: unknown; expectedRevision: number | null }) => api.saveConfig(document, expectedRevision),
    onSuccess: (outcome) => {
      if (outcome.kind !== 'saved') return;
      queryClient.setQueryData<LoadedConfig>(queryKeys.config(), { document: outcome.document, lastModified: outcome.lastModified, revision: outcome.revision, savedBy: outcome.savedBy });
      void queryClient.invalidateQueries({ queryKey: queryKeys.streams() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.status() });
    },
  });
}

/** `fast`: refresh every second (a restream is being watched), as while any file is being read. */
export function useStreams(options: { fast?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.streams(),
    queryFn: () => api.streams(),
    refetchInterval: (query) => (options.fast || query.state.data?.some((s) => s.stats.reading !== null || Boolean(s.stats.backfill)) ? READING_REFRESH_MS : STREAMS_REFRESH_MS),
  });
}

/** Records in and out and backlogs per minute (GET /v1/history), for the data-flow charts. */
export function useFlowHistory(minutes = 60) {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.history(minutes), queryFn: () => api.history(minutes), refetchInterval: HISTORY_REFRESH_MS, placeholderData: keepPreviousData });
}

export function useRestream() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: RestreamRequest) => api.restream(request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.streams() }),
  });
}

/**
 * A log kept in the query cache and grown by polling with `?since=` in follow mode; the buffer is
 * capped so that a long-running console does not grow without bound.
 */
/** Reads what a receiver of a draft would read (POST /v1/config/preview); each call reads afresh. */
export function usePreview() {
  const api = useApi();
  return useMutation({ mutationFn: (request: PreviewRequest) => api.preview(request) });
}

/**
 * Validates now, sharing the cache of useValidation (the Save button needs the answer first). With
 * `fresh`, asks the agent again: what a save would restart depends on what runs at that moment.
 */
export function useValidateNow() {
  const api = useApi();
  const queryClient = useQueryClient();
  return (text: string, document: unknown, options: { fresh?: boolean } = {}) =>
    queryClient.fetchQuery({ queryKey: queryKeys.validation(text), queryFn: () => api.validate(document), staleTime: options.fresh ? 0 : Infinity });
}

/** Drops the cached configuration so that the saved version is loaded again. */
export function useReloadConfig() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.config() });
}

/** The agent's OpenAPI document (API reference page); it changes only with the agent's version. */
export function useOpenApi() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.openApi(), queryFn: () => api.openApi(), staleTime: Infinity });
}
