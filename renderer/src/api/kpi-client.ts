/**
 * The KPI endpoints for the console: library, validation, saving and evaluation. Answers are parsed
 * with the shared zod schemas; a failed validation or a refused save is an answer, not an error.
 */
import { z } from 'zod';
import { ValidationResultSchema, type ValidationResult, type Violation } from '../../../shared/config/violations.js';
import { KpiEvaluationSchema, KpiLibraryEntrySchema, KpiMetaSchema, type EvaluateRequest, type KpiEvaluation, type KpiLibraryEntry } from '../../../shared/kpi/api.js';
import type { ApiClient } from './client.js';

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

const path = (name: string) => `/v1/kpis/${encodeURIComponent(name)}`;

export class KpiClient {
  constructor(private readonly api: ApiClient) {}

  async list(): Promise<KpiLibraryEntry[]> {
    return (await this.api.call(z.array(KpiLibraryEntrySchema), { method: 'GET', path: '/v1/kpis' })).response;
  }

  /** `original`: the library name of the KPI being edited (it may keep its name). */
  async validate(document: unknown, original: string | null): Promise<ValidationResult> {
    const query = original ? `?original=${encodeURIComponent(original)}` : '';
    const { status, envelope } = await this.api.send({ method: 'POST', path: `/v1/kpis/validate${query}`, body: document });
    const result = ValidationResultSchema.safeParse(envelope.response);
    if (!result.success) throw this.api.failure(status, envelope);
    return result.data;
  }

  /** Saves under `name` (the library name it had, or its own name when new). */
  async save(name: string, document: unknown): Promise<KpiSaveOutcome> {
    const { status, envelope } = await this.api.send({ method: 'PUT', path: path(name), body: document });
    if (!envelope.success) {
      const result = ValidationResultSchema.safeParse(envelope.response);
      if (status === 422 && result.success) return { kind: 'invalid', violations: result.data.violations };
      throw this.api.failure(status, envelope);
    }
    const meta = KpiMetaSchema.safeParse(envelope.meta);
    const saved = z.object({ name: z.string() }).safeParse(envelope.response);
    if (!meta.success || !saved.success) throw this.api.failure(status, envelope);
    return { kind: 'saved', name: saved.data.name, lastModified: meta.data.last_modified, warnings: meta.data.violations ?? [] };
  }

  async remove(name: string): Promise<void> {
    await this.api.call(z.string(), { method: 'DELETE', path: path(name) });
  }

  async evaluate(request: EvaluateRequest): Promise<KpiEvaluation> {
    const { status, envelope } = await this.api.send({ method: 'POST', path: '/v1/kpis/evaluate', body: request });
    if (!envelope.success) {
      const result = ValidationResultSchema.safeParse(envelope.response);
      if (status === 422 && result.success) throw new KpiInvalidError(result.data.violations);
      throw this.api.failure(status, envelope);
    }
    const parsed = KpiEvaluationSchema.safeParse(envelope.response);
    if (!parsed.success) throw this.api.failure(status, envelope);
    return parsed.data;
  }
}
