import type { RouteId } from '../../../shared/api/routes.js';
import type { Handlers } from '../handler-types.js';

export const kpiRoutes = {
  listKpis: ({ runtime }) => ({ response: runtime.kpis.list() }),

  getKpi: ({ runtime, params }) => {
    const entry = runtime.kpis.get(params.name);
    if (!entry) return { success: false, status: 404, response: `There is no KPI "${params.name}" in the library.` };
    return { response: entry.definition, meta: { kind: entry.kind, last_modified: entry.last_modified } };
  },

  validateKpi: ({ runtime, body, query }) => {
    const outcome = runtime.kpis.validate(body, query.kind, query.original);
    const errors = outcome.violations.filter((v) => v.level === 'error').length;
    return {
      success: outcome.status === 'passed',
      response: { status: outcome.status, violations: outcome.violations },
      meta: { kind: outcome.kind },
      ...(outcome.status === 'failed' ? { errorText: `The KPI definition has ${errors} ${errors === 1 ? 'error' : 'errors'}.` } : {}),
    };
  },

  saveKpi: ({ runtime, params, body, query }) => {
    const outcome = runtime.kpis.save(params.name, body, query.kind);
    if (outcome.status === 'failed') {
      const errors = outcome.violations.filter((v) => v.level === 'error').length;
      return { success: false, status: 422, response: { status: 'failed', violations: outcome.violations }, errorText: `The KPI definition has ${errors} ${errors === 1 ? 'error' : 'errors'}; nothing was saved.` };
    }
    const meta: Record<string, unknown> = { kind: outcome.entry.kind, last_modified: outcome.entry.last_modified };
    if (outcome.violations.length > 0) meta.violations = outcome.violations;
    return { response: outcome.entry.definition, meta };
  },

  deleteKpi: ({ runtime, params }) => {
    if (!runtime.kpis.delete(params.name)) return { success: false, status: 404, response: `There is no KPI "${params.name}" in the library.` };
    return { response: `KPI "${params.name}" deleted.` };
  },

  evaluateKpi: ({ runtime, body }) => ({ response: runtime.kpis.evaluate(body) }),
} satisfies Partial<Handlers<RouteId>>;
