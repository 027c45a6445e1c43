import { ApiError } from '../../../shared/api/errors.js';
import { KpiKindSchema } from '../../../shared/kpi/api.js';
import type { KpiKind } from '../../../shared/kpi/schema.js';
import type { Handler, HandlerContext } from '../router.js';

function requireBody(context: HandlerContext): unknown {
  if (context.body === undefined) throw new ApiError(400, 'Send the KPI definition as a JSON object in the request body (Content-Type: application/json).');
  return context.body;
}

function kindOf(context: HandlerContext): KpiKind | undefined {
  const kind = context.query.kind;
  if (kind === undefined || kind === '') return undefined;
  const parsed = KpiKindSchema.safeParse(kind);
  if (!parsed.success) throw new ApiError(400, `kind must be line or machine_type, not "${kind}".`);
  return parsed.data;
}

export const kpiRoutes = {
  listKpis: ({ runtime }) => ({ response: runtime.kpis.list() }),

  getKpi: ({ runtime, params }) => {
    const entry = runtime.kpis.get(params.name ?? '');
    if (!entry) return { success: false, status: 404, response: `There is no KPI "${params.name}" in the library.` };
    return { response: entry.definition, meta: { kind: entry.kind, last_modified: entry.last_modified } };
  },

  validateKpi: (context) => {
    const outcome = context.runtime.kpis.validate(requireBody(context), kindOf(context), context.query.original || undefined);
    const errors = outcome.violations.filter((v) => v.level === 'error').length;
    return {
      success: outcome.status === 'passed',
      response: { status: outcome.status, violations: outcome.violations },
      meta: { kind: outcome.kind },
      ...(outcome.status === 'failed' ? { errorText: `The KPI definition has ${errors} error(s).` } : {}),
    };
  },

  saveKpi: (context) => {
    const name = context.params.name ?? '';
    const outcome = context.runtime.kpis.save(name, requireBody(context), kindOf(context));
    if (outcome.status === 'failed') {
      const errors = outcome.violations.filter((v) => v.level === 'error').length;
      return { success: false, status: 422, response: { status: 'failed', violations: outcome.violations }, errorText: `The KPI definition has ${errors} error(s); nothing was saved.` };
    }
    const meta: Record<string, unknown> = { kind: outcome.entry.kind, last_modified: outcome.entry.last_modified };
    if (outcome.violations.length > 0) meta.violations = outcome.violations;
    return { response: outcome.entry.definition, meta };
  },

  deleteKpi: ({ runtime, params }) => {
    const name = params.name ?? '';
    if (!runtime.kpis.delete(name)) return { success: false, status: 404, response: `There is no KPI "${name}" in the library.` };
    return { response: `KPI "${name}" deleted.` };
  },

  evaluateKpi: ({ runtime, body }) => ({ response: runtime.kpis.evaluate(body) }),
} satisfies Record<string, Handler>;
