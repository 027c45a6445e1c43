/**
 * The Logs page's reads (issue 38): level, component and time are applied by the agent over its
 * rotated files; the console keeps what it was given, follows new lines, and pages back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogView } from '../../../shared/api/resources.js';
import { useApi } from './api-context.js';
import type { LogRead, LogReadOptions } from './client.js';
import { appendLogLines, firstTimestamp, prependLogLines } from './log-buffer.js';
import { queryKeys } from './query-keys.js';

const LOG_FOLLOW_MS = 2000;
/** Lines fetched when a log is first opened, and per "load older". */
export const LOG_INITIAL_LINES = 2000;

export interface LogFilters {
  /** The lowest level wanted; '' for every line. */
  level: '' | NonNullable<LogReadOptions['level']>;
  /** '' for every component. */
  component: string;
  /** Lines at or before this time (spec form or ISO 8601, UTC): "jump to time". Undefined: the newest. */
  until?: string;
}

const asked = (filters: LogFilters): LogReadOptions => ({
  ...(filters.level ? { level: filters.level } : {}),
  ...(filters.component ? { component: filters.component } : {}),
});

/** The lines of a log that match `filters`; while following (and not looking back to a time), new ones are appended. */
export function useLog(name: LogView, filters: LogFilters, follow: boolean) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = queryKeys.log(name, filters);
  return useQuery({
    queryKey: key,
    queryFn: async (): Promise<LogRead> => {
      const previous = queryClient.getQueryData<LogRead>(key);
      if (!previous || previous.newestLineAt === null || filters.until !== undefined) {
        const until = filters.until ? { until: filters.until } : {};
        return api.log(name, { ...asked(filters), lines: LOG_INITIAL_LINES, ...until });
      }
      // From the newest line of the log, not the newest shown: with a filter the newest shown may be an hour old.
      const fresh = await api.log(name, { ...asked(filters), since: previous.newestLineAt, lines: 100_000 });
      const lines = appendLogLines(previous.lines, fresh.lines);
      return { lines, newestLineAt: fresh.newestLineAt ?? previous.newestLineAt, hasOlder: previous.hasOlder };
    },
    refetchInterval: follow && filters.until === undefined ? LOG_FOLLOW_MS : false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}

/** "Load older": the page before the oldest line shown, with the same filters; answers how many lines came. */
export function useLoadOlderLog(name: LogView, filters: LogFilters) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = queryKeys.log(name, filters);
  return useMutation({
    mutationFn: async () => {
      const current = queryClient.getQueryData<LogRead>(key);
      const oldest = current ? firstTimestamp(current.lines) : undefined;
      if (!current || oldest === undefined) return 0;
      const page = await api.log(name, { ...asked(filters), until: oldest, lines: LOG_INITIAL_LINES });
      let added = 0;
      queryClient.setQueryData<LogRead>(key, (shown) => {
        if (!shown) return shown;
        const lines = prependLogLines(page.lines, shown.lines);
        added = lines.length - shown.lines.length;
        return { ...shown, lines, hasOlder: page.hasOlder && added > 0 };
      });
      return added;
    },
  });
}
