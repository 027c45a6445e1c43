/**
 * Payload schemas of the management API: status, streams and markers, restream, logs, meta.
 */
import { MessageCodeSchema, MessageParamsSchema } from '../config/message-schema.js';
import { z } from 'zod';
import { CONFIG_LIMITS } from '../config/limits.js';
import { ValidationResultSchema } from '../config/violations.js';

export const ServiceStatusSchema = z.enum(['running', 'stopped', 'unknown']);
export const AgentStatusSchema = z.enum(['running', 'stopped', 'failed']);
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

export const BackupErrorCodeSchema = z.enum(['auth_error', 'checksum_error', 'connectivity_error', 'not_configured', 'unexpected_error']);
export const BackupFeatureSchema = z.object({
  last_success: z.string().nullable().describe('ISO 8601 time of the last successful backup; null if never.'),
  error_code: BackupErrorCodeSchema.nullable(),
  error_message: z.string().nullable(),
});

const usage = z.object({
  total_gb: z.number(),
  available_gb: z.number(),
  used_gb: z.number(),
  percent_used: z.number(),
  percent_free: z.number(),
});
export type Usage = z.infer<typeof usage>;

export const MachineInfoSchema = z.object({
  cpu: z.object({ percent: z.number(), cpu_count: z.number() }),
  memory: usage,
  disk: usage,
});
export type MachineInfo = z.infer<typeof MachineInfoSchema>;

export const ServiceHealthSchema = z.enum(['ok', 'degraded']);
export type ServiceHealth = z.infer<typeof ServiceHealthSchema>;

/**
 * One service of GET /v1/status. `status` keeps the spec's values; `health` says whether the service
 * works as it should: a running receiver whose folder is missing is `running` and `degraded`.
 */
export const ServiceStateSchema = z
  .object({
    status: ServiceStatusSchema,
    health: ServiceHealthSchema.optional().describe('degraded: the service has current error markers on its streams (see GET /v1/streams); ok otherwise.'),
    reason: z.string().nullable().optional().describe('Why the service is degraded: the newest error marker\'s message; null when ok.'),
    reason_code: MessageCodeSchema.optional().describe('Stable code of the reason (the marker\'s code, or "health.unsent"); absent when ok.'),
    reason_params: MessageParamsSchema.optional().describe('Parameters of reason_code (more_problems: how many other problems "and N more" counts); absent when ok.'),
    reason_at: z.string().nullable().optional().describe('When the newest error marker was raised (UTC, YYYY-MM-DD HH:MM:SS.ffffff): where its log lines are; absent when ok.'),
  })
  .catchall(z.unknown());
export type ServiceState = z.infer<typeof ServiceStateSchema>;

export const StorageProblemSchema = z.object({
  area: z.string().describe('What could not be written: logs:<file>, store, kpi, config, state, output:<transmit>.'),
  path: z.string().describe('The folder that could not be written.'),
  category: z.enum(['disk_full', 'write_failed']),
  message: z.string().describe('Plain words, e.g. "Disk full at /var/lib/tributary/state: …".'),
  since: z.string().describe('ISO 8601 time of the first failure.'),
});
export type StorageProblem = z.infer<typeof StorageProblemSchema>;

/** One transmit in status.last_data_transmit: deliveries, backlog, and how fast it drains. */
export const TransmitStatsSchema = z
  .object({
    transmit_type: z.string(),
    last_success: z.string().nullable().describe('ISO 8601 UTC time of the last delivery; null if none since the agent started.'),
    records_sent: z.number().int().describe('Records delivered (kept across restarts; the sum of this transmit\'s `sent` in GET /v1/streams).'),
    bytes_sent: z.number().int(),
    backlog_records: z.number().int().describe('Records waiting in the outbox.'),
    backlog_bytes: z.number().int(),
    last_error: z.string().nullable(),
    last_error_code: MessageCodeSchema.optional().describe('Stable code of last_error (issue 57); absent when there is none or the agent said it without one.'),
    last_error_params: MessageParamsSchema.optional().describe('Parameters of last_error_code.'),
    last_error_at: z.string().nullable(),
    upload_errors: z.number().int().describe('Failed deliveries since the agent started (each is retried; nothing is dropped).'),
    records_per_minute: z.number().describe('Records delivered per minute, mean over the last 5 minutes (or since the agent started, if shorter).'),
    lag_seconds: z.number().nullable().describe('Age in seconds of the oldest record still in the outbox (since it was queued); null when the outbox is empty.'),
    drain_seconds: z
      .number()
      .nullable()
      .describe('Estimated seconds until the outbox is empty at the delivery rate of the last 5 minutes: 0 when it is empty; null when records wait but none were delivered in that time.'),
    sparkplug: z
      .object({
        state: z.enum(['disconnected', 'waiting_for_host', 'born']),
        group_id: z.string(),
        edge_node_id: z.string(),
        bd_seq: z.number().int(),
        devices_born: z.number().int(),
        born_at: z.string().nullable().optional().describe('ISO 8601 UTC time of the last NBIRTH; null before the first.'),
        primary_host_id: z.string().nullable().optional().describe('The primary host the node waits for; null without one.'),
        host_online: z.boolean().nullable().optional().describe("The primary host's last STATE: true online, false offline, null not heard yet (or no primary host)."),
        message: z.string(),
      })
      .optional()
      .describe('An mqtt transmit with payload_format sparkplug_b: its edge node\'s birth state (born, waiting for the primary host, disconnected).'),
  })
  .catchall(z.unknown());
export type TransmitStats = z.infer<typeof TransmitStatsSchema>;

export const StatusSchema = z.object({
  backup: z.record(z.string(), BackupFeatureSchema),
  last_data_transmit: z.record(z.string(), TransmitStatsSchema).describe('Per transmit: last success, records and bytes sent, backlog, last error, rate, lag and drain estimate.'),
  machine_info: MachineInfoSchema,
  agent: z.object({
    status: AgentStatusSchema,
    services: z.record(z.string(), ServiceStateSchema),
    problems: z
      .array(StorageProblemSchema)
      .optional()
      .describe('Places the agent cannot write to right now (a full disk, no permission); empty when all is well. The agent resumes by itself once they can be written.'),
  }),
});
export type Status = z.infer<typeof StatusSchema>;

export const ComponentTypeSchema = z.enum(['Receiver', 'Transmit', 'Transform']);
export type ComponentType = z.infer<typeof ComponentTypeSchema>;

const serviceIds = z.array(z.string()).describe('Service ids as in status.agent.services: receiver:<name>, transform:<name>, transmit:<name>.');
/**
 * What saving a configuration does to the running agent (POST /v1/config/validate: would do;
 * POST /v1/config meta.changes: did). Services whose configuration is unchanged keep running, with
 * their connections and sessions. All lists are empty when the agent does not run.
 */
export const ConfigChangesSchema = z.object({
  start: serviceIds.describe('New services, and services that were not running (their start had failed).'),
  restart: serviceIds.describe('Running services whose configuration changed.'),
  stop: serviceIds.describe('Running services that are no longer configured.'),
  keep: serviceIds.describe('Running services whose configuration is unchanged: they keep running untouched.'),
});
export type ConfigChanges = z.infer<typeof ConfigChangesSchema>;

/** POST /v1/config/validate: the validation, and when it found no errors, what saving would change. */
export const ConfigValidationSchema = ValidationResultSchema.extend({ changes: ConfigChangesSchema.optional() });
export type ConfigValidation = z.infer<typeof ConfigValidationSchema>;

export const MarkerSchema = z.object({
  component: z.string(),
  component_type: ComponentTypeSchema,
  asset: z.string(),
  stream_type: z.string(),
  category: z.string(),
  timestamp: z.string().describe('YYYY-MM-DD HH:MM:SS.ffffff, UTC'),
  level: z.enum(['error', 'warning']),
  message: z.string().describe('In English words, for tools and logs.'),
  code: MessageCodeSchema.optional().describe('Stable code of the message (e.g. "link.connect_refused"; "marker.<category>" with params.text when the message has no finer code). Always sent by this agent.'),
  params: MessageParamsSchema.optional(),
});
export type Marker = z.infer<typeof MarkerSchema>;

export const FileReadingSchema = z.object({
  path: z.string().describe('The file being read (as the receiver names it: a local path, or the path on the share).'),
  bytes_read: z.number().int().describe('Bytes of it read and committed so far.'),
  size: z.number().int().describe('Its size when this read began.'),
});
export type FileReading = z.infer<typeof FileReadingSchema>;

export const BackfillProgressSchema = z.object({
  from: z.string().describe('Source time the history is read from (ISO 8601 UTC).'),
  to: z.string().describe('Source time it is read up to: when the receiver connected.'),
  read: z.number().int().describe('Values read from history so far.'),
});
export type BackfillProgress = z.infer<typeof BackfillProgressSchema>;

/** One stream's records at one transmit (GET /v1/streams stats.transmits). */
export const StreamDeliverySchema = z.object({
  sent: z.number().int().describe('Records of this stream the transmit delivered (kept across restarts).'),
  waiting: z.number().int().describe('Records of this stream waiting in the transmit\'s outbox.'),
  oldest_waiting_at: z.string().nullable().describe('ISO 8601 UTC time the oldest waiting record was read; null when none waits.'),
});
export type StreamDelivery = z.infer<typeof StreamDeliverySchema>;

/**
 * The flow of one stream: counters and the newest record kept across restarts (counted in the
 * commit's transaction), rates and reading since the agent started.
 */
export const StreamStatsSchema = z.object({
  records_read: z.number().int().describe('Records read and committed since the stream\'s first record (kept across restarts).'),
  last_record_at: z.string().nullable().describe('ISO 8601 UTC time the newest record of this stream was read (arrived); null if none was ever read.'),
  last_record_timestamp: z.string().nullable().describe("The newest record's own timestamp (ISO 8601 UTC): how old its data is; null if none was ever read."),
  records_per_minute: z.number().describe('Mean over the last 5 minutes (or since the agent started, if shorter).'),
  reading: FileReadingSchema.nullable().describe('The file of this stream being read now (also during a restream); null when none is.'),
  backfilled_per_minute: z.number().optional().describe('Of records_per_minute, the records read from an OPC UA server\'s history (history_backfill), not live.'),
  backfill: BackfillProgressSchema.nullable().optional().describe('An OPC UA history backfill of this stream under way (history_backfill); null when none runs.'),
  transmits: z
    .record(z.string(), StreamDeliverySchema)
    .describe('Per transmit of the configuration that this stream\'s records went to: records sent and waiting, and when the oldest waiting one was read.'),
  expected_every_seconds: z
    .number()
    .nullable()
    .describe('The interval this stream is judged by (late, silent): the stream\'s expected_every_seconds, else learned from its arrivals and history; null while unknown.'),
  expected_from: z.enum(['configuration', 'history']).nullable().describe('Where expected_every_seconds comes from.'),
});
export type StreamStats = z.infer<typeof StreamStatsSchema>;

export const QUALITY_CHECKS = ['stuck', 'range', 'gap', 'clock', 'schema'] as const;

/** An open finding of the data-quality watch (docs/data-quality.md). */
export const QualityFindingSchema = z.object({
  check: z.enum(QUALITY_CHECKS),
  field: z.string().nullable().describe('The field concerned (stuck, range); null for the stream as a whole.'),
  since: z.string().describe('When the finding opened (ISO 8601 UTC): for stuck, the record time the value first read so.'),
  detail: z.string().describe('In words, e.g. "temp has read 21 for 12 min (75 records)".'),
  code: MessageCodeSchema.optional().describe('Stable code of the detail (quality.stuck, quality.gap …). Always sent by this agent.'),
  params: MessageParamsSchema.optional(),
});
export type QualityFinding = z.infer<typeof QualityFindingSchema>;

export const StreamRecordSchema = z.object({
  stream: z.string(),
  asset: z.string(),
  stream_type: z.string(),
  data_receiver: z.string(),
  markers: z.array(MarkerSchema),
  stats: StreamStatsSchema,
  quality: z.array(QualityFindingSchema).describe('Open findings of the data-quality watch for this stream; [] when none.'),
});
export type StreamRecord = z.infer<typeof StreamRecordSchema>;

export const StreamRefSchema = z.strictObject({ asset: z.string().min(1), stream_type: z.string().min(1) });
export const RestreamRequestSchema = z
  .record(z.string().min(1), z.array(StreamRefSchema).min(1))
  .describe('Data receiver name to the streams of it to send again.');
export type RestreamRequest = z.infer<typeof RestreamRequestSchema>;

/**
 * The body of POST /v1/restream: a request cannot name more streams than a configuration holds,
 * refused before each entry is parsed.
 */
export const RestreamBodySchema = z
  .unknown()
  .superRefine((body, ctx) => {
    const lists = body && typeof body === 'object' ? Object.values(body) : [];
    const named = lists.reduce((n: number, list) => n + (Array.isArray(list) ? list.length : 1), 0);
    if (named > CONFIG_LIMITS.streams)
      ctx.addIssue({ code: 'custom', message: `The request names ${named.toLocaleString('en-US')} streams; a configuration holds at most ${CONFIG_LIMITS.streams.toLocaleString('en-US')}, so nothing was restreamed` });
  })
  .pipe(RestreamRequestSchema)
  .describe('{"<data_receiver_name>": [{"asset": "…", "stream_type": "…"}], …}');

export const LOG_NAMES = ['agent_core.log', 'agent_web.log'] as const;
export type LogName = (typeof LOG_NAMES)[number];
/** The audit trail (GET /v1/log/stream/audit, admins only): read like a log, though not a file of LOG_NAMES. */
export const AUDIT_LOG = 'audit';
/** What the Logs page can show: a log file or the audit trail. */
export type LogView = LogName | typeof AUDIT_LOG;
export const LogQuerySchema = z.object({
  lines: z.coerce.number().int().min(1).max(100_000).default(1000),
  since: z.string().optional(),
});

export const MetaSubtypeSchema = z.object({ id: z.string(), name: z.string(), data_receiver: z.array(z.string()).optional() });
export const MetaObjectSchema = z.object({ id: z.string(), name: z.string(), subtypes: z.array(MetaSubtypeSchema).optional() });
export const MetaDetailSchema = z.object({
  subtype: z.string(),
  object: z.string(),
  schema: z.object({ path: z.string(), schema: z.record(z.string(), z.unknown()) }),
  new_template: z.object({ path: z.string(), schema: z.record(z.string(), z.unknown()) }),
});

export { ValidationResultSchema };
