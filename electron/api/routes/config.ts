import { ApiError } from '../../../shared/api/errors.js';
import { allTemplates, templateFor } from '../../../shared/config/templates.js';
import { ConfigUnreadableError } from '../../agent/index.js';
import type { Handler, HandlerContext } from '../router.js';

function requireBody(context: HandlerContext): unknown {
  if (context.body === undefined) throw new ApiError(400, 'Send the configuration as a JSON object in the request body (Content-Type: application/json).');
  return context.body;
}

/** If-Match carries the last_modified the client loaded; quotes (ETag form) are optional. */
function expectedRevision(context: HandlerContext): string | undefined {
  const header = context.headers['if-match'];
  return header === undefined || header === '*' ? undefined : header.replace(/^W\//, '').replace(/^"|"$/g, '');
}

const etag = (lastModified: string | null | undefined): Record<string, string> => (lastModified ? { ETag: `"${lastModified}"` } : {});

export const configRoutes = {
  getConfig: ({ runtime }) => {
    try {
      const { config, lastModified } = runtime.readConfig();
      return { response: config, meta: { last_modified: lastModified }, headers: etag(lastModified) };
    } catch (cause) {
      if (cause instanceof ConfigUnreadableError) throw new ApiError(500, cause.message);
      throw cause;
    }
  },

  listTemplates: () => ({ response: allTemplates() }),

  getTemplate: ({ params }) => {
    const template = templateFor(params.protocol ?? '');
    return template ? { response: template } : { success: false, status: 404, response: 'Requested configuration is not available' };
  },

  saveConfig: async (context) => {
    const outcome = await context.runtime.saveConfig(requireBody(context), expectedRevision(context));
    if (outcome.status === 'failed') {
      const errors = outcome.violations.filter((v) => v.level === 'error').length;
      return {
        success: false,
        status: 422,
        response: { status: 'failed', violations: outcome.violations },
        errorText: `The configuration has ${errors} error(s); nothing was saved.`,
      };
    }
    const meta: Record<string, unknown> = { last_modified: outcome.lastModified };
    if (outcome.violations.length > 0) meta.violations = outcome.violations;
    return { response: outcome.config, meta, headers: etag(outcome.lastModified) };
  },

  previewConfig: async (context) => ({ response: await context.runtime.preview(context.body) }),

  validateConfig: async (context) => {
    const result = await context.runtime.validate(requireBody(context));
    return { success: result.status === 'passed', response: result };
  },
} satisfies Record<string, Handler>;
