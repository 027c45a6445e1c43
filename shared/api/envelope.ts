/**
 * The response envelope every endpoint returns, and the error shape inside it.
 */
import { z } from 'zod';

export const ApiErrorBodySchema = z.object({
  code: z.number().int().describe('Stable integer code; equals the HTTP status of the failure.'),
  text: z.string().describe('What went wrong, for a person.'),
});

/** Envelope around any payload schema. */
export const envelopeSchema = <T extends z.ZodType>(response: T) =>
  z.object({
    success: z.boolean(),
    response,
    meta: z.record(z.string(), z.unknown()).optional(),
    error: ApiErrorBodySchema.optional(),
  });

export const AnyEnvelopeSchema = envelopeSchema(z.unknown());
export type Envelope<T = unknown> = {
  success: boolean;
  response: T;
  meta?: Record<string, unknown>;
  error?: { code: number; text: string };
};

/** Minor API version, sent as X-Tributary-API-Version: 1.<minor>. */
export const API_VERSION = '1.0';
export const API_VERSION_HEADER = 'X-Tributary-API-Version';

export { formatSpecTimestamp, nowMicros, parseTimestampToMicros } from './spec-time.js';
