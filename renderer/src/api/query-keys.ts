import type { LogView } from '../../../shared/api/resources.js';

/** Every query key of the console, so that invalidation never misses a spelling. */
export const queryKeys = {
  all: ['tributary'] as const,
  session: () => [...queryKeys.all, 'session'] as const,
  tokens: () => [...queryKeys.all, 'tokens'] as const,
  status: () => [...queryKeys.all, 'status'] as const,
  usageHistory: () => [...queryKeys.all, 'status', 'usage-history'] as const,
  config: () => [...queryKeys.all, 'config'] as const,
  validation: (text: string) => [...queryKeys.all, 'config', 'validation', text] as const,
  streams: () => [...queryKeys.all, 'streams'] as const,
  history: (minutes: number) => [...queryKeys.all, 'history', minutes] as const,
  log: (name: LogView, filters?: unknown) => [...queryKeys.all, 'log', name, filters] as const,
  kpis: () => [...queryKeys.all, 'kpis'] as const,
  fleet: () => [...queryKeys.all, 'fleet'] as const,
  fleetHistory: (agent: string | null) => [...queryKeys.all, 'fleet', 'history', agent] as const,
  openApi: () => [...queryKeys.all, 'openapi'] as const,
  kpiValidation: (text: string, original: string | null) => [...queryKeys.all, 'kpis', 'validation', original, text] as const,
  kpiEvaluation: (request: unknown, run: number) => [...queryKeys.all, 'kpis', 'evaluation', request, run] as const,
};
