/**
 * The KPI endpoints for the console: library, validation, saving and evaluation, by their routes
 * (shared/api/routes.ts). A failed validation or a refused save is an answer, not an error.
 */
import type { ValidationResult, Violation } from '../../../shared/config/violations.js';
import type { EvaluateRequest, KpiEvaluation, KpiLibraryEntry } from '../../../shared/kpi/api.js';
import type { RouteCaller } from './route-request.js';

export type KpiSaveOutcome =
  | { kind: 'saved'; name: string; lastModified: string; warnings: Violation[] }
  | { kind: 'invalid'; violations: Violation[] };

/** The definition failed validation; `violations` say where. */
export class KpiInvalidError extends Error {
  constructor(readonly violations: Violation[]) {
    const errors = violations.filter((v) => v.level === 'error').length;
    super(`The KPI definition has ${errors} ${errors === 1 ? 'error' : 'errors'}.`);
    this.name = 'KpiInvalidError';
  }
}

export class KpiClient {
  constructor(private readonly api: RouteCaller) {}

  async list(): Promise<KpiLibraryEntry[]> {
    return (await this.api.call('listKpis')).response;
  }

  /** `original`: the library name of the KPI being edited (it may keep its name). */
  async validate(document: unknown, original: string | null): Promise<ValidationResult> {
    return (await this.api.route('validateKpi', { body: document, query: original ? { original } : {} })).response;
  }

  /** Saves under `name` (the library name it had, or its own name when new). */
  async save(name: string, document: unknown): Promise<KpiSaveOutcome> {
    const answer = await this.api.route('saveKpi', { params: { name }, body: document });
    if (!answer.success) return { kind: 'invalid', violations: answer.response.violations };
    const saved = typeof answer.response.name === 'string' ? answer.response.name : name;
    return { kind: 'saved', name: saved, lastModified: answer.meta.last_modified, warnings: answer.meta.violations ?? [] };
  }

  async remove(name: string): Promise<void> {
    await this.api.call('deleteKpi', { params: { name } });
  }

  async evaluate(request: EvaluateRequest): Promise<KpiEvaluation> {
    const answer = await this.api.route('evaluateKpi', { body: request });
    if (!answer.success) throw new KpiInvalidError(answer.response.violations);
    return answer.response;
  }
}
