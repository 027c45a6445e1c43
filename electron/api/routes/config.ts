import { ApiError } from '../../../shared/api/errors.js';
import { allTemplates, templateFor } from '../../../shared/config/templates.js';
import { ConfigUnreadableError } from '../../agent/index.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { HandlerContext, Handlers } from '../handler-types.js';

/** If-Match carries the revision the client loaded (its ETag); quotes are optional. */
function expectedRevision(context: HandlerContext): string | undefined {
  const header = context.headers['if-match'];
  return header === undefined || header === '*' ? undefined : header.replace(/^W\//, '').replace(/^"|"$/g, '');
}

const etag = (revision: number | null | undefined): Record<string, string> => (revision ? { ETag: `"${revision}"` } : {});

export const configRoutes = {
  getConfig: ({ runtime }) => {
    try {
      const { config, lastModified, revision, savedBy } = runtime.readConfig();
      return { response: config, meta: { last_modified: lastModified, revision, saved_by: savedBy }, headers: etag(revision) };
    } catch (cause) {
      if (cause instanceof ConfigUnreadableError) throw new ApiError(500, cause.message);
      throw cause;
    }
  },

  listConfigHistory: ({ runtime }) => ({ response: runtime.configHistory() }),

  getConfigVersion: ({ runtime, params }) => {
    const revision = /^\d{1,15}$/.test(params.revision ?? '') ? Number(params.revision) : Number.NaN;
    const found = Number.isNaN(revision) ? undefined : runtime.configVersion(revision);
    if (!found) return { success: false, status: 404, response: `No kept configuration version has revision ${params.revision}.` };
    const { version } = found;
    return { response: found.config, meta: { last_modified: version.saved_at, revision: version.revision, saved_by: version.saved_by } };
  },

  listTemplates: () => ({ response: allTemplates() }),

  getTemplate: ({ params }) => {
    const template = templateFor(params.protocol);
    return template ? { response: template } : { success: false, status: 404, response: 'Requested configuration is not available' };
  },

  saveConfig: async (context) => {
    const outcome = await context.runtime.saveConfig(context.body, expectedRevision(context as HandlerContext), context.caller.name);
    if (outcome.status === 'failed') {
      const errors = outcome.violations.filter((v) => v.level === 'error').length;
      return {
        success: false,
        status: 422,
        response: { status: 'failed', violations: outcome.violations },
        errorText: `The configuration has ${errors} ${errors === 1 ? 'error' : 'errors'}; nothing was saved.`,
      };
    }
    const meta: Record<string, unknown> = { last_modified: outcome.lastModified, revision: outcome.revision, saved_by: context.caller.name, changes: outcome.changes };
    if (outcome.violations.length > 0) meta.violations = outcome.violations;
    return { response: outcome.config, meta, headers: etag(outcome.revision) };
  },

  previewConfig: async ({ runtime, body }) => ({ response: await runtime.preview(body) }),

  validateConfig: async ({ runtime, body, caller }) => {
    // Only an admin's validation looks at this PC's files and folders: a viewer's or operator's
    // answer must not tell whether /etc/shadow exists or may be read (issue 50, decision 0063).
    const result = await runtime.validate(body, { files: caller.role === 'admin' });
    return { success: result.status === 'passed', response: result };
  },
} satisfies Partial<Handlers<RouteId>>;
