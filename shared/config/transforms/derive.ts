/**
 * What derives from the transform registry (index.ts). Kept apart from the list so that the list is
 * the only thing a new transform type edits.
 */
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';
import type { TransformDescriptor, TransformRuleChecks } from './descriptor.js';
import { TRANSFORM_DESCRIPTORS } from './index.js';

type Descriptors = typeof TRANSFORM_DESCRIPTORS;
// A generic mapped type keeps the tuple (a mapped type over a concrete tuple would not).
type SchemasOf<T> = { -readonly [K in keyof T]: T[K] extends { schema: infer S } ? S : never };
type Schemas = SchemasOf<Descriptors>;
const descriptors = TRANSFORM_DESCRIPTORS as readonly TransformDescriptor<z.ZodObject>[];

/** The transforms' schemas in registry order, typed as the tuple z.discriminatedUnion needs. */
export const TRANSFORM_SCHEMAS = TRANSFORM_DESCRIPTORS.map((d) => d.schema) as unknown as Schemas;

/** Every transform_type value, in registry order. */
export const TRANSFORM_TYPES: readonly string[] = descriptors.map((d) => d.type);

/** The rules of a transform's own type, from its folder (none for a type no transform has). */
export function transformTypeViolations(
  transform: { transform_type: string },
  base: JsonPath,
  checks: TransformRuleChecks,
): Violation[] {
  return descriptors.find((d) => d.type === transform.transform_type)?.rules?.(transform, base, checks) ?? [];
}
