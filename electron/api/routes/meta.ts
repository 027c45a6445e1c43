import { ApiError } from '../../../shared/api/errors.js';
import { metaDetail, metaObjects } from '../../../shared/api/meta.js';
import { openApiDocument } from '../../../shared/api/openapi.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { Handlers } from '../handler-types.js';

let openApiCache: Record<string, unknown> | undefined;

export const metaRoutes = {
  listMeta: () => ({ response: { objects: metaObjects() } }),
  getMeta: ({ params, query }) => {
    const result = metaDetail(params.object_id, query.subtype);
    if (result.ok) return { response: result.detail };
    throw new ApiError(result.reason === 'unknown_object' ? 404 : 400, result.message);
  },
  openapi: () => ({ response: (openApiCache ??= openApiDocument()) }),
} satisfies Partial<Handlers<RouteId>>;
