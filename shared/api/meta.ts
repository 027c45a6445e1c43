/**
 * Deprecated UI meta objects (GET /v1/meta, /v1/meta/<object_id>): the JSON Schema of each
 * configuration block, generated from the same zod schemas, and a new-item template with tokens the
 * client replaces: "<<index>>" (a unique integer), "<<data_receiver_asset>>" (a stream body) and
 * "<<data_receiver_connection>>" (a connection body).
 */
import { z } from 'zod';
import * as schema from '../config/schema.js';

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
const INDEX = '<<index>>';

const csvParser = { parser_name: `csv_parser_${INDEX}`, parser_type: 'spreadsheet', filter_stream: ['*'], file_format: 'csv', options: { localtz: 'UTC', parse: { separator: ',', header: 0 } } };
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

const OBJECTS: MetaObject[] = [
  {
    id: 'data_receiver', name: 'Data receiver', path: 'data_receiver',
    subtypes: [
      { id: 'localfile_csv', name: 'Local files (CSV)', schema: schema.LocalfileReceiverSchema, template: receiver('localfile', { delete_completed: false, parsers: [csvParser] }) },
      { id: 'sql', name: 'SQL database', schema: schema.SqlReceiverSchema, template: receiver('sql') },
      { id: 'smb_csv', name: 'Windows share (CSV)', schema: schema.SmbReceiverSchema, template: receiver('smb', { delete_completed: false, parsers: [csvParser] }) },
      { id: 'opcua', name: 'OPC UA server', schema: schema.OpcuaReceiverSchema, template: receiver('opcua', { read_mode: 'subscription', sampling_interval_ms: 1000, queue_size: 10 }) },
    ],
  },
  {
    id: 'data_receiver_asset', name: 'Data receiver asset (stream)', path: 'data_receiver.streams',
    subtypes: [
      { id: 'localfile_csv', name: 'Local files (CSV)', schema: schema.FileStreamSchema, template: asset({ file_filter: ['*.csv'] }), data_receiver: ['localfile_csv'] },
      { id: 'sql', name: 'SQL database', schema: schema.SqlStreamSchema, template: asset({ query: 'SELECT * FROM machine_data WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }), data_receiver: ['sql'] },
      { id: 'smb_csv', name: 'Windows share (CSV)', schema: schema.FileStreamSchema, template: asset({ file_filter: ['*.csv'] }), data_receiver: ['smb_csv'] },
      { id: 'opcua', name: 'OPC UA server', schema: schema.OpcuaStreamSchema, template: asset({ opcua_tags: [{ name: 'ns=2;s=Line1.Temperature', exportname: 'temperature' }] }), data_receiver: ['opcua'] },
    ],
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
    subtypes: [
      { id: 'counter_assign_column', name: 'Counter: assign column', schema: schema.CounterAssignColumnTransformSchema, template: transform('counter_assign_column') },
      { id: 'counter_event_string', name: 'Counter: event string', schema: schema.CounterEventStringTransformSchema, template: transform('counter_event_string') },
      { id: 'pandas', name: 'pandas (not supported)', schema: schema.PandasTransformSchema, template: transform('pandas') },
      { id: 'convert_timestamps', name: 'Convert time stamps', schema: schema.ConvertTimestampsTransformSchema, template: transform('convert_timestamps', { field_names: [], timezone: 'UTC' }) },
      { id: 'rename', name: 'Rename columns', schema: schema.RenameTransformSchema, template: transform('rename', { renames: {} }) },
    ],
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
