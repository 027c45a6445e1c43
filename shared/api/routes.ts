/**
 * The management API's route contract: every endpoint with its request and response schema. The
 * router binds one handler per entry; /v1/openapi.json is generated from this table.
 */
import { MessageCodeSchema, MessageParamsSchema } from '../config/message-schema.js';
import { z } from 'zod';
import { ConfigurationSchema } from '../config/schema.js';
import { TemplateSchema } from '../config/templates.js';
import { ValidationResultSchema, ViolationSchema } from '../config/violations.js';
import { PreviewRequestSchema, PreviewResultSchema } from './preview.js';
import { EvaluateRequestSchema, KpiEvaluationSchema, KpiLibraryEntrySchema, KpiMetaSchema } from '../kpi/api.js';
import { LineKpiSchema, MachineTypeKpiSchema } from '../kpi/schema.js';
import {
  AgentStatusSchema,
  ConfigChangesSchema,
  ConfigValidationSchema,
  MetaDetailSchema,
  MetaObjectSchema,
  RestreamBodySchema,
  RestreamRequestSchema,
  StatusSchema,
  StreamRecordSchema,
} from './resources.js';
import { FlowHistorySchema, historyQuery } from './history.js';
import type { Role } from './roles.js';
import { AddFleetAgentBodySchema, FleetAgentSchema, FleetSchema, PinFleetAgentBodySchema } from './fleet.js';
import { CreateTokenBodySchema, CreatedTokenSchema, SessionSchema, TokenInfoSchema } from './tokens.js';

/** A query parameter: always text on the wire, parsed (coerced) by its schema. */
export interface QueryParameter {
  schema: z.ZodType;
  description: string;
  required?: boolean;
}

/**
 * One endpoint: path and method, what it takes (query, body) and what it answers (response, meta).
 * The router parses query and body with these schemas once (400 with zod's message otherwise) and
 * hands the handler typed input; the console's client builds its requests and parses the answers
 * from the same entry; /v1/openapi.json is generated from it.
 */
export interface RouteContract {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `:name` parameters. */
  path: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  query?: Record<string, QueryParameter>;
  /** The request body as the router takes it; `.describe()` names it in the "send a body" message. */
  body?: z.ZodType;
  /** What OpenAPI shows for the body when it says more than `body` (documents judged by validation, answered with violations). */
  bodyDocument?: z.ZodType;
  /** `response` of a successful envelope, as the console parses it. */
  response: z.ZodType;
  /** What OpenAPI shows for the response when it says more than `response`. */
  responseDocument?: z.ZodType;
  /** `response` of a failed envelope that is an answer rather than an error (violations, a refused restream). */
  failure?: z.ZodType;
  meta?: z.ZodType;
  /** Answers `response` itself, not wrapped in the envelope; failures keep the envelope (docs/decisions/0036). */
  raw?: boolean;
  /** The least role a token needs for this route (docs/security.md); every route names one. */
  role: Role;
  /**
   * A stronger role needed when the parsed body has this field (previewing an unsaved configuration
   * reads files: admin; previewing the saved one: operator).
   */
  elevated?: { field: string; role: Role; what: string };
}

const LastModifiedMetaSchema = z.object({
  last_modified: z.string().nullable().describe('UTC, YYYY-MM-DD HH:MM:SS.ffffff; null when nothing was saved yet.'),
  revision: z.number().int().nullable().describe('Counts saves; also the ETag. Send it back as If-Match to refuse overwriting a newer save (409). null when nothing was saved yet.'),
  saved_by: z.string().nullable().optional().describe('Name of the API token that saved this version; null when unknown (edited by hand).'),
});
const SavedMetaSchema = LastModifiedMetaSchema.extend({
  violations: z.array(ViolationSchema).optional().describe('Warnings of a save that passed.'),
  changes: ConfigChangesSchema.describe('What the save did to the running agent.'),
});
const ConfigVersionSchema = z.object({
  revision: z.number().int(),
  saved_at: z.string().nullable().describe('UTC, YYYY-MM-DD HH:MM:SS.ffffff.'),
  size: z.number().int().describe('Bytes of the saved file.'),
  saved_by: z.string().nullable().describe('Name of the API token that saved this version; null when unknown.'),
  current: z.boolean().describe('The version the agent runs now.'),
  summary: z.string().nullable().describe('What this version changed against the one before, in one line ("Adds receiver local_files; changes transmit archive (poll_interval)."); null for versions saved before summaries were kept.'),
  changes: z
    .array(z.object({ code: MessageCodeSchema, params: MessageParamsSchema, text: z.string() }))
    .nullable()
    .optional()
    .describe("The summary's phrases with their codes (change.adds_receiver …), for a client that writes them in its language; null for versions saved before codes were kept."),
});
/** A configuration as it travels: any JSON (validation judges it and answers with violations); OpenAPI shows the schema. */
const ConfigDocument = z.unknown().describe('the configuration');
const SavedConfigDocument = z.record(z.string(), z.unknown());
const KpiDocument = z.unknown().describe('the KPI definition');
const LogLines = z.array(z.string()).describe('Lines: timestamp | thread | component | LEVEL | message');
const logQuery = {
  lines: {
    schema: z.coerce.number({ error: 'lines must be a whole number from 1 to 100000' }).int({ error: 'lines must be a whole number from 1 to 100000' }).min(1, { error: 'lines must be a whole number from 1 to 100000' }).max(100_000, { error: 'lines must be a whole number from 1 to 100000' }).default(1000),
    description: 'How many of the newest lines (1..100000, default 1000).',
  },
  since: { schema: z.string(), description: 'Only lines after this time (YYYY-MM-DD HH:MM:SS.ffffff UTC, or ISO 8601).' },
  until: { schema: z.string(), description: 'Only lines at or before this time (same forms as since): with lines, the page before a time ("load older", "jump to time").' },
  level: {
    schema: z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR'], { error: 'level must be DEBUG, INFO, WARNING or ERROR' }),
    description: 'The lowest level wanted: WARNING gives warnings and errors.',
  },
  component: { schema: z.string(), description: 'Only lines of this component, as written in the line (e.g. transmit:cloud, receiver:plant_files).' },
};
const LogMeta = z.object({
  newest_line_at: z.string().nullable().describe("Time stamp of the log's newest line when it was read, whatever the filters: continue from it with since."),
  has_older: z.boolean().describe('The answer stopped at lines: older matching lines may exist (ask again with until).'),
});
const logFilters = 'Applied by the agent over the current file and its rotated copies, newest lines first: the answer holds the newest `lines` lines that match, oldest first.';
const kpiKind = { schema: z.enum(['line', 'machine_type'], { error: 'kind must be line or machine_type' }), description: 'Kind of the definition (default: detected).' };

export const ROUTES = [
  { id: 'getConfig', method: 'GET', role: 'viewer', path: '/v1/config', summary: 'Read the saved configuration (secrets masked).', response: SavedConfigDocument, responseDocument: ConfigurationSchema, meta: LastModifiedMetaSchema },
  { id: 'listConfigHistory', method: 'GET', role: 'viewer', path: '/v1/config/history', summary: 'The kept configuration versions, newest first: revision, time, size and who saved each.', response: z.array(ConfigVersionSchema) },
  {
    id: 'getConfigVersion', method: 'GET', role: 'viewer', path: '/v1/config/history/:revision', summary: 'One kept configuration version (secrets masked).',
    description: 'Secrets are masked as GET /v1/config masks them; saving the version back through POST /v1/config keeps the saved secrets. 404 for a revision no longer kept.',
    response: SavedConfigDocument, responseDocument: ConfigurationSchema, meta: LastModifiedMetaSchema, failure: z.string(),
  },
  { id: 'listTemplates', method: 'GET', role: 'viewer', path: '/v1/config/templates', summary: 'All configuration templates.', response: z.array(TemplateSchema) },
  { id: 'getTemplate', method: 'GET', role: 'viewer', path: '/v1/config/templates/:protocol', summary: 'The template configuration of one protocol (basic, localfile, smb, sql, opcua, mqtt).', response: SavedConfigDocument, responseDocument: ConfigurationSchema, failure: z.string() },
  {
    id: 'saveConfig', method: 'POST', role: 'admin', path: '/v1/config', summary: 'Validate and save the configuration.',
    description: 'Atomic; the previous versions are kept. "********" for a secret keeps the saved value. Send If-Match with the revision (ETag) you loaded to refuse overwriting a newer save (409).',
    body: ConfigDocument, bodyDocument: ConfigurationSchema, response: SavedConfigDocument, responseDocument: ConfigurationSchema, failure: ValidationResultSchema, meta: SavedMetaSchema,
  },
  {
    id: 'validateConfig', method: 'POST', role: 'viewer', path: '/v1/config/validate', summary: "Validate a configuration without saving it (the files and folders it names are looked at only for an admin's token).",
    description: 'When there are no errors, `changes` says what saving it would do to the running agent: which services start, restart, stop, and which keep running untouched.',
    body: ConfigDocument, bodyDocument: ConfigurationSchema, response: ConfigValidationSchema, failure: ConfigValidationSchema,
  },
  {
    id: 'previewConfig', method: 'POST', role: 'operator', path: '/v1/config/preview', summary: 'What a receiver of an unsaved configuration would read: the first records of each stream.',
    description:
      'Without `configuration`, the saved configuration is previewed (operator role); previewing an unsaved `configuration` needs the admin role. Files (localfile, smb): the first rows of the first file each stream matches, through its parser and the transforms that select the stream. SQL: the first rows of each query with the state it would bind now. OPC UA: the current value of each tag. Nothing is committed, no progress moves, nothing is sent. 422 with violations when the receiver or the transforms have errors, or for an mqtt receiver (a broker keeps no history to preview); 404 for an unknown receiver.',
    body: PreviewRequestSchema, response: PreviewResultSchema, failure: ValidationResultSchema,
    // Previewing an unsaved configuration reads whatever files it names: admin (docs/security.md).
    elevated: { field: 'configuration', role: 'admin', what: 'Previewing an unsaved configuration' },
  },
  { id: 'restartAgent', method: 'POST', role: 'operator', path: '/v1/agent/restart', summary: 'Restart the agent.', response: AgentStatusSchema, failure: AgentStatusSchema },
  { id: 'startAgent', method: 'POST', role: 'operator', path: '/v1/agent/start', summary: 'Start the agent.', response: AgentStatusSchema, failure: AgentStatusSchema },
  { id: 'stopAgent', method: 'POST', role: 'operator', path: '/v1/agent/stop', summary: 'Stop the agent (data collection and upload pause).', response: AgentStatusSchema, failure: AgentStatusSchema },
  { id: 'coreLog', method: 'GET', role: 'viewer', path: '/v1/log/stream', summary: 'Newest lines of agent_core.log.', description: logFilters, query: logQuery, response: LogLines, meta: LogMeta },
  {
    id: 'auditLog', method: 'GET', role: 'admin', path: '/v1/log/stream/audit', summary: 'Newest lines of the audit trail (audit.log): who changed what through the API. Admin only.',
    description: `${logFilters} Lines: timestamp | token=<name> | role=<role> | METHOD path | status outcome [| revision=N]. component is a token's name; level follows the status: below 400 INFO, 4xx WARNING, 5xx ERROR. Refused requests (401, 403) are kept apart in audit-refused.log.`,
    query: logQuery, response: LogLines, meta: LogMeta,
  },
  {
    id: 'namedLog', method: 'GET', role: 'viewer', path: '/v1/log/stream/:log_filename', summary: 'Newest lines of agent_core.log or agent_web.log.',
    description: logFilters, query: logQuery, response: LogLines, meta: LogMeta, failure: z.string(),
  },
  { id: 'listMeta', method: 'GET', role: 'viewer', path: '/v1/meta', summary: 'UI meta objects.', deprecated: true, response: z.object({ objects: z.array(MetaObjectSchema) }) },
  {
    id: 'getMeta', method: 'GET', role: 'viewer', path: '/v1/meta/:object_id', summary: 'JSON Schema and new-item template of one meta object.', deprecated: true,
    query: { subtype: { schema: z.string(), description: 'Subtype id from GET /v1/meta (ignored for data_transmit).' } },
    response: MetaDetailSchema,
  },
  { id: 'getStatus', method: 'GET', role: 'viewer', path: '/v1/status', summary: 'Agent, services, machine, backup and transmit status.', response: StatusSchema },
  {
    id: 'listStreams', method: 'GET', role: 'viewer', path: '/v1/streams', summary: 'Configured streams with their warning and error markers and their data flow.',
    description: '`stats`: records read since the agent started, the newest record (when read, and its own timestamp), records per minute over the last 5 minutes, and the file being read now (bytes read of its size), also during a restream; `backfill`: an OPC UA history backfill under way ({from, to, read}), else null.',
    response: z.array(StreamRecordSchema),
  },
  {
    id: 'getHistory', method: 'GET', role: 'viewer', path: '/v1/history', summary: 'The data flow per minute: records in per stream, records out and backlog per transmit.',
    description: 'Kept for 24 hours in the agent\'s database (state/flow-history.db), across restarts. The current minute is included with what it has so far.',
    query: historyQuery, response: FlowHistorySchema,
  },
  {
    id: 'restream', method: 'POST', role: 'operator', path: '/v1/restream', summary: 'Read and send the named streams again.',
    description: 'Naming a receiver or stream that is not configured fails with HTTP 500 and nothing is restreamed.',
    body: RestreamBodySchema, bodyDocument: RestreamRequestSchema, response: z.string(), failure: z.string(),
  },
  {
    id: 'browseOpcua', method: 'GET', role: 'viewer', path: '/v1/opcua/browse', summary: 'Child nodes of an OPC UA node, through a saved opcua receiver (tag picker).',
    description: 'Uses the receiver\'s certificate and trust list. 404: unknown receiver or node; 503: server unreachable or its certificate not trusted (the message names the thumbprint).',
    query: {
      receiver: { schema: z.string().trim().min(1), description: 'data_receiver_name of a saved opcua receiver.', required: true },
      node: { schema: z.string().trim(), description: 'Node id to list the children of, e.g. ns=2;s=Line1; default i=85 (Objects).' },
    },
    response: z.array(z.object({ node_id: z.string(), browse_name: z.string(), display_name: z.string(), node_class: z.string(), data_type: z.string().nullable() })),
  },
  // KPI library, validation and evaluation on local data (docs/kpi.md).
  { id: 'listKpis', method: 'GET', role: 'viewer', path: '/v1/kpis', summary: 'The KPI library.', response: z.array(KpiLibraryEntrySchema) },
  {
    id: 'validateKpi', method: 'POST', role: 'viewer', path: '/v1/kpis/validate', summary: 'Validate a KPI definition (the body) without saving it.',
    description: 'A line KPI when ?kind=line or when any field_maps item has machine_types; ?kind=machine_type forces a machine-type KPI. success is false when the status is failed.',
    query: {
      kind: kpiKind,
      original: { schema: z.string(), description: 'Library name of the KPI being edited (it may keep its name).' },
    },
    body: KpiDocument, bodyDocument: z.union([MachineTypeKpiSchema, LineKpiSchema]), response: ValidationResultSchema, failure: ValidationResultSchema, meta: z.object({ kind: z.enum(['line', 'machine_type']) }),
  },
  {
    id: 'evaluateKpi', method: 'POST', role: 'viewer', path: '/v1/kpis/evaluate', summary: 'Compute a saved or draft KPI per machine and time bin on the recent records of this agent.',
    description: 'Division by zero and missing data give null. 422 with violations when the definition is invalid.',
    body: EvaluateRequestSchema.describe('{"name": "<KPI>"} or {"definition": {…}}, with start, end, bin_size, machines'), response: KpiEvaluationSchema, failure: ValidationResultSchema,
  },
  { id: 'getKpi', method: 'GET', role: 'viewer', path: '/v1/kpis/:name', summary: 'One KPI definition of the library.', response: z.record(z.string(), z.unknown()), failure: z.string(), meta: KpiMetaSchema },
  {
    id: 'saveKpi', method: 'PUT', role: 'admin', path: '/v1/kpis/:name', summary: 'Validate and save a KPI definition (a different name in the body renames it).',
    description: 'Invalid definitions are refused with HTTP 422 and the violations, like POST /v1/config.',
    query: { kind: kpiKind },
    body: KpiDocument, bodyDocument: z.union([MachineTypeKpiSchema, LineKpiSchema]), response: z.record(z.string(), z.unknown()), failure: ValidationResultSchema, meta: KpiMetaSchema,
  },
  { id: 'deleteKpi', method: 'DELETE', role: 'admin', path: '/v1/kpis/:name', summary: 'Remove a KPI from the library.', response: z.string(), failure: z.string() },
  // Tokens with roles and the caller's own session (docs/security.md).
  { id: 'getSession', method: 'GET', role: 'viewer', path: '/v1/session', summary: 'The token this request carries: its name and role, and whether the connection is encrypted.', response: SessionSchema },
  { id: 'listTokens', method: 'GET', role: 'admin', path: '/v1/tokens', summary: 'API tokens: names, roles, created and last-used times (never a token).', response: z.array(TokenInfoSchema) },
  {
    id: 'createToken', method: 'POST', role: 'admin', path: '/v1/tokens', summary: 'Create a named token with a role; response.token holds it, this once.',
    description: 'Only a salted hash is kept: a lost token cannot be shown again; revoke it and create another. 409 when the name is taken.',
    body: CreateTokenBodySchema, response: CreatedTokenSchema,
  },
  { id: 'revokeToken', method: 'DELETE', role: 'admin', path: '/v1/tokens/:name', summary: 'Revoke a token at once.', response: z.string(), failure: z.string() },
  // The fleet: other agents managed from this one (docs/fleet.md).
  {
    id: 'getFleet', method: 'GET', role: 'viewer', path: '/v1/fleet', summary: 'This agent and each added one: reachable, state, health, streams flowing and stale, backlog, version, revision.',
    description: 'Each added agent is polled at most every 5 s. /v1/fleet/agents/{name}/api/<path> forwards a request to that agent\'s /<path> with its stored token, after this agent\'s own role rules for that route are applied to the caller.',
    response: FleetSchema,
  },
  {
    id: 'addFleetAgent', method: 'POST', role: 'admin', path: '/v1/fleet/agents', summary: 'Add an agent to the fleet; the token is kept sealed and never answered.',
    description: 'The agent is contacted with the token first (refused: 422). https without fingerprint pins the certificate seen now (trust on first use) and answers it; with a fingerprint only that certificate is accepted. 409 when the name is taken.',
    body: AddFleetAgentBodySchema, response: FleetAgentSchema,
  },
  { id: 'removeFleetAgent', method: 'DELETE', role: 'admin', path: '/v1/fleet/agents/:name', summary: 'Remove an agent from the fleet (its token is forgotten).', response: z.string(), failure: z.string() },
  {
    id: 'pinFleetAgent', method: 'POST', role: 'admin', path: '/v1/fleet/agents/:name/pin', summary: 'Re-pin the certificate of an agent whose certificate changed.',
    description: 'The fingerprint must be the one the agent presents now (GET /v1/fleet presented_fingerprint); until then nothing is sent to it.',
    body: PinFleetAgentBodySchema, response: FleetAgentSchema, failure: z.string(),
  },
  { id: 'openapi', method: 'GET', role: 'viewer', path: '/v1/openapi.json', summary: 'This description (the OpenAPI document itself, not in the envelope).', raw: true, response: z.record(z.string(), z.unknown()) },
] as const satisfies readonly RouteContract[];

export type RouteId = (typeof ROUTES)[number]['id'];
