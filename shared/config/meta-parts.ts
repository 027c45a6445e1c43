/**
 * What a component type says about itself in the deprecated meta objects (GET /v1/meta,
 * shared/api/meta.ts): those keep ids, names and an order of their own, so each descriptor carries them.
 */
import type { z } from 'zod';

/** The token a meta template holds where the client puts a unique integer. */
export const META_INDEX = '<<index>>';

export interface MetaEntry {
  /** Position among its kind's meta subtypes (the product family's order, not the registry's). */
  order: number;
  /** Subtype id, when it is not the type's name. */
  id?: string;
  name: string;
  /** Fields the new-item template adds to the kind's common ones. */
  template?: Record<string, unknown>;
}

/** A receiver's meta entry: its data_receiver subtype and its data_receiver_asset (stream) subtype. */
export interface ReceiverMetaEntry extends MetaEntry {
  stream: { schema: z.ZodType; template: Record<string, unknown> };
}
