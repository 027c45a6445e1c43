/**
 * The management API's route contract: every endpoint with its request and response schema. The
 * router binds one handler per entry; /v1/openapi.json is generated from this table.
 */
import { z } from 'zod';
import { ConfigurationSchema } from '../config/schema.js';
import { TemplateSchema } from '../config/templates.js';
import { ValidationResultSchema } from '../config/violations.js';
import {
  AgentStatusSchema,
  MetaDetailSchema,
  MetaObjectSchema,
  RestreamRequestSchema,
  StatusSchema,
  StreamRecordSchema,
} from './resources.js';

export interface RouteContract {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `:name` parameters. */
  path: string;
  summary: string;
  description?: string;
  deprecated?: boolean;
  query?: Record<string, { schema: z.ZodType; description: string; required?: boolean }>;
  body?: z.ZodType;
  response: z.ZodType;
  meta?: z.ZodType;
}

const LastModifiedMetaSchema = z.object({ last_modified: z.string().nullable().describe('UTC, YYYY-MM-DD HH:MM:SS.ffffff; null when nothing was saved yet.') });
const ConfigDocument = ConfigurationSchema;
const LogLines = z.array(z.string()).describe('Lines: timestamp | thread | component | LEVEL | message');
const logQuery = {
  lines: { schema: z.number().int().min(1).max(100_000), description: 'How many of the newest lines (1..100000, default 1000).' },
  since: { schema: z.string(), description: 'Only lines after this time (YYYY-MM-DD HH:MM:SS.ffffff UTC, or ISO 8601).' },
};

export const ROUTES = [
  { id: 'getConfig', method: 'GET', path: '/v1/config', summary: 'Read the saved configuration (secrets masked).', response: ConfigDocument, meta: LastModifiedMetaSchema },
  { id: 'listTemplates', method: 'GET', path: '/v1/config/templates', summary: 'All configuration templates.', response: z.array(TemplateSchema) },
  { id: 'getTemplate', method: 'GET', path: '/v1/config/templates/:protocol', summary: 'The template configuration of one protocol (basic, localfile, smb, sql, opcua).', response: ConfigDocument },
  {
    id: 'saveConfig', method: 'POST', path: '/v1/config', summary: 'Validate and save the configuration.',
    description: 'Atomic; the previous versions are kept. "********" for a secret keeps the saved value. Send If-Match with the last_modified you loaded to refuse overwriting a newer save (409).',
    body: ConfigDocument, response: z.union([ConfigDocument, ValidationResultSchema]), meta: LastModifiedMetaSchema,
  },
  { id: 'validateConfig', method: 'POST', path: '/v1/config/validate', summary: 'Validate a configuration without saving it.', body: ConfigDocument, response: ValidationResultSchema },
  { id: 'restartAgent', method: 'POST', path: '/v1/agent/restart', summary: 'Restart the agent.', response: AgentStatusSchema },
  { id: 'startAgent', method: 'POST', path: '/v1/agent/start', summary: 'Start the agent.', response: AgentStatusSchema },
  { id: 'stopAgent', method: 'POST', path: '/v1/agent/stop', summary: 'Stop the agent (data collection and upload pause).', response: AgentStatusSchema },
  { id: 'coreLog', method: 'GET', path: '/v1/log/stream', summary: 'Newest lines of agent_core.log.', query: logQuery, response: LogLines },
  { id: 'namedLog', method: 'GET', path: '/v1/log/stream/:log_filename', summary: 'Newest lines of agent_core.log or agent_web.log.', query: logQuery, response: LogLines },
  { id: 'listMeta', method: 'GET', path: '/v1/meta', summary: 'UI meta objects.', deprecated: true, response: z.object({ objects: z.array(MetaObjectSchema) }) },
  {
    id: 'getMeta', method: 'GET', path: '/v1/meta/:object_id', summary: 'JSON Schema and new-item template of one meta object.', deprecated: true,
    query: { subtype: { schema: z.string(), description: 'Subtype id from GET /v1/meta (ignored for data_transmit).' } },
    response: MetaDetailSchema,
  },
  { id: 'getStatus', method: 'GET', path: '/v1/status', summary: 'Agent, services, machine, backup and transmit status.', response: StatusSchema },
  { id: 'listStreams', method: 'GET', path: '/v1/streams', summary: 'Configured streams with their warning and error markers.', response: z.array(StreamRecordSchema) },
  {
    id: 'restream', method: 'POST', path: '/v1/restream', summary: 'Read and send the named streams again.',
    description: 'Naming a receiver or stream that is not configured fails with HTTP 500 and nothing is restreamed.',
    body: RestreamRequestSchema, response: z.string(),
  },
  { id: 'openapi', method: 'GET', path: '/v1/openapi.json', summary: 'This description.', response: z.record(z.string(), z.unknown()) },
] as const satisfies readonly RouteContract[];

export type RouteId = (typeof ROUTES)[number]['id'];
