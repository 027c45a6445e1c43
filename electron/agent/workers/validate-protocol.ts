import type { Configuration } from '../../../shared/config/schema.js';
import type { Violation } from '../../../shared/config/violations.js';
import type { PathContext } from '../../../shared/config/path-policy.js';

export interface ValidateRequest {
  id: number;
  document: unknown;
  /** Send the parsed configuration (defaults filled in) back, not only the violations. */
  wantConfig: boolean;
  /** Where the agent runs (path rules). */
  context?: PathContext;
}

export type ValidateResponse =
  | { id: number; ok: true; violations: Violation[]; config?: Configuration }
  | { id: number; ok: false; error: string };
