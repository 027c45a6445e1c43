/**
 * Query hooks of the KPI page: the library, live validation of the draft, save, delete, preview.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EvaluateRequest } from '../../../shared/kpi/api.js';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

export function useKpis() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.kpis(), queryFn: () => api.kpis.list(), refetchOnWindowFocus: false });
}

/** Server-side validation of a draft; keyed by its text, so equal text is validated once. */
export function useKpiValidation(text: string, document: unknown, original: string | null, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.kpiValidation(text, original),
    queryFn: () => api.kpis.validate(document, original),
    enabled,
    staleTime: 5_000,
    gcTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export function useSaveKpi() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, document }: { name: string; document: unknown }) => api.kpis.save(name, document),
    // Validation results depend on the library (unique names): drop them with it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.kpis() }),
  });
}

export function useDeleteKpi() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.kpis.remove(name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.kpis() }),
  });
}

/** The preview: evaluates when a request is given (null: nothing asked yet); each `run` computes afresh. */
export function useKpiEvaluation(request: EvaluateRequest | null, run: number) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.kpiEvaluation(request, run),
    queryFn: () => api.kpis.evaluate(request!),
    enabled: request !== null,
    retry: false,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}
