/**
 * The one API client of the console. Every answer is parsed with the shared zod schemas before a
 * component sees it; failures become ApiRequestError with a message an operator can act on.
 */
import { z } from 'zod';
import { AnyEnvelopeSchema, type Envelope } from '../../../shared/api/envelope.js';
import {
  AgentStatusSchema,
  StatusSchema,
  StreamRecordSchema,
  type AgentStatus,
  type LogName,
  type RestreamRequest,
  type Status,
  type StreamRecord,
} from '../../../shared/api/resources.js';
import { ValidationResultSchema, ViolationSchema, type ValidationResult, type Violation } from '../../../shared/config/violations.js';
import { PreviewResultSchema, type PreviewRequest, type PreviewResult } from '../../../shared/api/preview.js';
import { ApiRequestError, UnauthorizedError } from './errors.js';
import { KpiClient } from './kpi-client.js';
import type { ApiRequest, Transport } from './transport.js';

/** The saved configuration as the agent returns it (secrets masked), and its revision. */
export interface LoadedConfig {
  document: Record<string, unknown>;
  lastModified: string | null;
}

/** A preview, or why the receiver cannot be previewed yet (its errors). */
export type PreviewOutcome = { kind: 'result'; result: PreviewResult } | { kind: 'invalid'; message: string; violations: Violation[] };

export type SaveOutcome =
  | { kind: 'saved'; document: Record<string, unknown>; lastModified: string | null; warnings: Violation[] }
  | { kind: 'invalid'; violations: Violation[] }
  | { kind: 'conflict'; message: string };

// The editor, not this parser, judges the configuration: keep the document exactly as stored.
const ConfigDocumentSchema = z.record(z.string(), z.unknown());
const ConfigMetaSchema = z.object({ last_modified: z.string().nullable().optional(), violations: z.array(ViolationSchema).optional() });
const LogLinesSchema = z.array(z.string());

export class ApiClient {
  constructor(
    private readonly transport: Transport,
    private readonly onUnauthorized: () => void,
  ) {}

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  /** The KPI endpoints (library, validation, evaluation). */
  readonly kpis = new KpiClient(this);

  /** One exchange with the envelope unparsed, for feature clients that read failures as answers. */
  send(request: ApiRequest): Promise<{ status: number; envelope: Envelope }> {
    return this.exchange(request);
  }

  /** A request whose failure is an error; the response parsed with `schema`. */
  call<T>(schema: z.ZodType<T>, request: ApiRequest): Promise<{ response: T; meta: Record<string, unknown> }> {
    return this.expect(schema, request);
  }

  /** The error of a failed envelope, with the agent's text. */
  failure(status: number, envelope: Envelope): ApiRequestError {
    return failure(status, envelope);
  }

  private async exchange(request: ApiRequest): Promise<{ status: number; envelope: Envelope }> {
    let reply;
    try {
      reply = await this.transport.send(request);
    } catch (cause) {
      throw new ApiRequestError(`The agent cannot be reached (${cause instanceof Error ? cause.message : String(cause)}). Is Tributary running?`, 0);
    }
    if (reply.status === 401) {
      this.onUnauthorized();
      throw new UnauthorizedError('The access token is missing or was refused.');
    }
    const envelope = AnyEnvelopeSchema.safeParse(reply.body);
    if (!envelope.success) throw new ApiRequestError(`The agent gave an unreadable answer to ${request.method} ${request.path} (HTTP ${reply.status}).`, reply.status);
    return { status: reply.status, envelope: envelope.data };
  }

  private parse<T>(schema: z.ZodType<T>, value: unknown, request: ApiRequest, status: number): T {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ApiRequestError(`The agent answered ${request.method} ${request.path} in an unexpected form: ${z.prettifyError(parsed.error)}`, status);
    return parsed.data;
  }

  /** Sends a request whose failure is an error; returns the parsed response and the meta. */
  private async expect<T>(schema: z.ZodType<T>, request: ApiRequest): Promise<{ response: T; meta: Record<string, unknown> }> {
    const { status, envelope } = await this.exchange(request);
    if (!envelope.success) throw failure(status, envelope);
    return { response: this.parse(schema, envelope.response, request, status), meta: envelope.meta ?? {} };
  }

  async config(): Promise<LoadedConfig> {
    const request: ApiRequest = { method: 'GET', path: '/v1/config' };
    const { response, meta } = await this.expect(ConfigDocumentSchema, request);
    return { document: response, lastModified: this.parse(ConfigMetaSchema, meta, request, 200).last_modified ?? null };
  }

  async validate(document: unknown): Promise<ValidationResult> {
    const request: ApiRequest = { method: 'POST', path: '/v1/config/validate', body: document };
    const { status, envelope } = await this.exchange(request);
    // A failed validation is an answer, not an error: success is false, response holds violations.
    const result = ValidationResultSchema.safeParse(envelope.response);
    if (!result.success) throw failure(status, envelope);
    return result.data;
  }

  /** Saves; `expectedRevision` (the last_modified that was loaded) refuses overwriting a newer save. */
  async saveConfig(document: unknown, expectedRevision: string | null): Promise<SaveOutcome> {
    const request: ApiRequest = {
      method: 'POST',
      path: '/v1/config',
      body: document,
      headers: expectedRevision ? { 'If-Match': `"${expectedRevision}"` } : {},
    };
    const { status, envelope } = await this.exchange(request);
    if (status === 409) return { kind: 'conflict', message: envelope.error?.text ?? 'The configuration was saved by someone else in the meantime.' };
    if (!envelope.success) {
      const result = ValidationResultSchema.safeParse(envelope.response);
      if (result.success) return { kind: 'invalid', violations: result.data.violations };
      throw failure(status, envelope);
    }
    const meta = this.parse(ConfigMetaSchema, envelope.meta ?? {}, request, status);
    const document_ = this.parse(ConfigDocumentSchema, envelope.response, request, status);
    return { kind: 'saved', document: document_, lastModified: meta.last_modified ?? null, warnings: meta.violations ?? [] };
  }

  /** What a receiver of the (unsaved) document would read; nothing is saved or committed. */
  async preview(request: PreviewRequest): Promise<PreviewOutcome> {
    const call: ApiRequest = { method: 'POST', path: '/v1/config/preview', body: request };
    const { status, envelope } = await this.exchange(call);
    if (!envelope.success) {
      const refused = ValidationResultSchema.safeParse(envelope.response);
      if (status === 422 && refused.success) return { kind: 'invalid', message: envelope.error?.text ?? 'The receiver has errors.', violations: refused.data.violations };
      throw failure(status, envelope);
    }
    return { kind: 'result', result: this.parse(PreviewResultSchema, envelope.response, call, status) };
  }

  async status(): Promise<Status> {
    return (await this.expect(StatusSchema, { method: 'GET', path: '/v1/status' })).response;
  }

  async agent(action: 'start' | 'stop' | 'restart'): Promise<AgentStatus> {
    return (await this.expect(AgentStatusSchema, { method: 'POST', path: `/v1/agent/${action}` })).response;
  }

  async streams(): Promise<StreamRecord[]> {
    return (await this.expect(z.array(StreamRecordSchema), { method: 'GET', path: '/v1/streams' })).response;
  }

  async restream(request: RestreamRequest): Promise<string> {
    return (await this.expect(z.string(), { method: 'POST', path: '/v1/restream', body: request })).response;
  }

  async log(name: LogName, options: { lines?: number; since?: string } = {}): Promise<string[]> {
    const query = new URLSearchParams();
    if (options.lines !== undefined) query.set('lines', String(options.lines));
    if (options.since !== undefined) query.set('since', options.since);
    const path = `/v1/log/stream/${encodeURIComponent(name)}${query.size > 0 ? `?${query.toString()}` : ''}`;
    return (await this.expect(LogLinesSchema, { method: 'GET', path })).response;
  }
}

function failure(status: number, envelope: Envelope): ApiRequestError {
  const text = envelope.error?.text ?? (typeof envelope.response === 'string' ? envelope.response : `The request failed (HTTP ${status}).`);
  return new ApiRequestError(text, status, envelope.response);
}
