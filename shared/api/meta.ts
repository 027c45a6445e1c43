/**
 * Deprecated UI meta objects (GET /v1/meta, /v1/meta/<object_id>): the JSON Schema of each
 * configuration block, generated from the same zod schemas, and a new-item template with tokens the
 * client replaces: "<<index>>" (a unique integer), "<<data_receiver_asset>>" (a stream body) and
 * "<<data_receiver_connection>>" (a connection body).
 */
import { z } from 'zod';
import * as schema from '../config/schema.js';
import { META_INDEX, type MetaEntry } from '../config/meta-parts.js';
import { RECEIVER_DESCRIPTORS } from '../config/receivers/index.js';
import { TRANSFORM_DESCRIPTORS } from '../config/transforms/index.js';
import { PARSER_DESCRIPTORS } from '../config/parsers/index.js';
import type { ReceiverDescriptor } from '../config/receivers/descriptor.js';
import type { TransformDescriptor } from '../config/transforms/descriptor.js';
import type { ParserDescriptor } from '../config/parsers/descriptor.js';

interface Subtype {
  id: string;
  name: string;
  schema: z.ZodType;
  template: Record<string, unknown>;
  /** data_receiver_asset: subtypes of data_receiver that may contain it. */
  data_receiver?: string[];
}
interface MetaObject {
  id: string;
  name: string;
  path: string;
  subtypes?: Subtype[];
  single?: { schema: z.ZodType; template: Record<string, unknown> };
}

const ASSET = '<<data_receiver_asset>>';
const CONNECTION = '<<data_receiver_connection>>';
const INDEX = META_INDEX;

/** The parser of the file receivers' templates: the first parser type with a meta template. */
const metaParser = (PARSER_DESCRIPTORS as readonly ParserDescriptor[]).find((d) => d.meta)?.meta?.template;
const receiver = (protocol: string, extra: Record<string, unknown> = {}) => ({
  data_receiver_name: `${protocol}_${INDEX}`,
  protocol,
  poll_interval: 5,
  ...extra,
  connections: [CONNECTION],
  streams: [ASSET],
});
const asset = (extra: Record<string, unknown>) => ({ asset: `asset_${INDEX}`, stream_type: 'data', ...extra });
const transform = (type: string, extra: Record<string, unknown> = {}) => ({ transform_name: `${type}_${INDEX}`, transform_type: type, filter_stream: ['*'], ...extra });

/** The descriptors with a meta entry, in the meta objects' order (decision 0055). */
function withMeta<D extends { meta?: MetaEntry }>(descriptors: readonly D[]): (D & { meta: MetaEntry })[] {
  return descriptors.filter((d): d is D & { meta: MetaEntry } => d.meta !== undefined).sort((x, y) => x.meta.order - y.meta.order);
}
const receivers = withMeta(RECEIVER_DESCRIPTORS as readonly ReceiverDescriptor[]);
const transforms = withMeta(TRANSFORM_DESCRIPTORS as readonly TransformDescriptor[]);
const receiverId = (d: ReceiverDescriptor & { meta: MetaEntry }) => d.meta.id ?? d.protocol;

const OBJECTS: MetaObject[] = [
  {
    id: 'data_receiver', name: 'Data receiver', path: 'data_receiver',
    subtypes: receivers.map((d) => ({
      id: receiverId(d),
      name: d.meta.name,
      schema: d.schema,
      template: receiver(d.protocol, { ...d.meta.template, ...(d.files && metaParser ? { parsers: [metaParser] } : {}) }),
    })),
  },
  {
    id: 'data_receiver_asset', name: 'Data receiver asset (stream)', path: 'data_receiver.streams',
    subtypes: receivers.map((d) => ({
      id: receiverId(d),
      name: d.meta.name,
      schema: d.meta.stream.schema,
      template: asset(d.meta.stream.template),
      data_receiver: [receiverId(d)],
    })),
  },
  {
    id: 'data_transmit', name: 'Data transmit', path: 'data_transmit',
    single: {
      schema: schema.RemoteDataPostTransmitSchema,
      template: { transmit_name: `transmit_${INDEX}`, transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: 'https://<tenant>.<domain>', API_key: '<API_KEY>', API_key_ID: '<API_KEY_ID>', timeout: 120, poll_interval: 5, max_request_records: 3000 },
    },
  },
  {
    id: 'transforms', name: 'Transforms', path: 'transforms',
    subtypes: transforms.map((d) => ({ id: d.meta.id ?? d.type, name: d.meta.name, schema: d.schema, template: transform(d.type, d.meta.template) })),
  },
];

/** GET /v1/meta `objects`. */
export function metaObjects() {
  return OBJECTS.map((o) => ({
    id: o.id,
    name: o.name,
    ...(o.subtypes ? { subtypes: o.subtypes.map((s) => ({ id: s.id, name: s.name, ...(s.data_receiver ? { data_receiver: s.data_receiver } : {}) })) } : {}),
  }));
}

export type MetaDetailResult =
  | { ok: true; detail: { subtype: string; object: string; schema: { path: string; schema: Record<string, unknown> }; new_template: { path: string; schema: Record<string, unknown> } } }
  | { ok: false; reason: 'unknown_object' | 'missing_subtype' | 'unknown_subtype'; message: string };

/** GET /v1/meta/<object_id>?subtype=… */
export function metaDetail(objectId: string, subtype: string | undefined): MetaDetailResult {
  const object = OBJECTS.find((o) => o.id === objectId);
  if (!object) return { ok: false, reason: 'unknown_object', message: `No meta object "${objectId}". Known: ${OBJECTS.map((o) => o.id).join(', ')}.` };
  let chosen: { id: string; schema: z.ZodType; template: Record<string, unknown> };
  if (object.single) chosen = { id: subtype ?? '', ...object.single };
  else {
    const ids = object.subtypes!.map((s) => s.id).join(', ');
    if (!subtype) return { ok: false, reason: 'missing_subtype', message: `The subtype query parameter is required for ${objectId}: one of ${ids}.` };
    const found = object.subtypes!.find((s) => s.id === subtype);
    if (!found) return { ok: false, reason: 'unknown_subtype', message: `No subtype "${subtype}" of ${objectId}. Known: ${ids}.` };
    chosen = found;
  }
  return {
    ok: true,
    detail: {
      subtype: chosen.id,
      object: object.id,
      schema: { path: object.path, schema: z.toJSONSchema(chosen.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown> },
      new_template: { path: object.path, schema: structuredClone(chosen.template) },
    },
  };
}
