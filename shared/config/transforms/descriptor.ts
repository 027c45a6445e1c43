/**
 * What a transform type tells the rest of the configuration code about itself (docs/decisions/0055).
 * Each type's folder (transforms/<type>/index.ts) exports one descriptor; transforms/index.ts lists
 * them, and the schema union, TRANSFORM_TYPES and the rule dispatch derive from that list.
 */
import type { AgentMessage } from '../message.js';
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';
import type { MetaEntry } from '../meta-parts.js';

/** Checks the transform rules share with the generic rules (semantic-rules.ts), handed in to avoid a circle. */
export interface TransformRuleChecks {
  isValidTimeZone: (zone: string) => boolean;
  timeZoneProblem: (zone: string) => AgentMessage;
  unknownStrptimeDirective: (format: string) => string | undefined;
}

export interface TransformDescriptor<S extends z.ZodObject = z.ZodObject> {
  /** The value of `transform_type` in the configuration. */
  type: string;
  /** The transform's block: an object whose `transform_type` is z.literal(type). */
  schema: S;
  /** What the schema cannot say, reported at the json_path to change (`base`: the transform's path). */
  rules?: (transform: z.infer<S>, base: JsonPath, checks: TransformRuleChecks) => Violation[];
  /** The page of docs/ that explains the type, if any. */
  docs?: string;
  /** Its subtype in the deprecated meta objects (GET /v1/meta), if it has one. */
  meta?: MetaEntry;
}

/** Keeps the schema's own type on `rules` (the descriptor list is checked against TransformDescriptor). */
export function transformDescriptor<S extends z.ZodObject>(descriptor: TransformDescriptor<S>): TransformDescriptor<S> {
  return descriptor;
}
