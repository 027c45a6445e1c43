/**
 * The one API client of the console. Requests and answers come from the route table
 * (shared/api/routes.ts), as the agent's router applies it: the path and method of each route,
 * and the schemas every answer is parsed with before a component sees it. Failures become
 * ApiRequestError with a message an operator can act on.
 */
import { z } from 'zod';
import { AnyEnvelopeSchema, type Envelope } from '../../../shared/api/envelope.js';
import type { FlowHistory } from '../../../shared/api/history.js';
import type { AgentStatus, ConfigChanges, ConfigValidation, LogView, RestreamRequest, Status, StreamRecord } from '../../../shared/api/resources.js';
import { type FailureOf, type MetaOf, type ResponseOf, pathOf } from '../../../shared/api/route-types.js';
import { ROUTES, type RouteContract, type RouteId } from '../../../shared/api/routes.js';
import type { Violation } from '../../../shared/config/violations.js';
import type { PreviewRequest, PreviewResult } from '../../../shared/api/preview.js';
import type { Role } from '../../../shared/api/roles.js';
import type { CreatedToken, Session, TokenInfo } from '../../../shared/api/tokens.js';
import { ApiRequestError, UnauthorizedError, unreachableText } from './errors.js';
import { text as catalogText } from '../i18n/language.js';
import { type Fleet, type FleetAgent, fleetProxyBase } from '../../../shared/api/fleet.js';
import { KpiClient } from './kpi-client.js';
import type { RouteAnswer, RouteCaller, RouteRequest } from './route-request.js';
import type { ApiRequest, Transport } from './transport.js';

/** The saved configuration as the agent returns it (secrets masked), and its revision. */
export interface LoadedConfig {
  document: Record<string, unknown>;
  lastModified: string | null;
  /** Counts saves (the ETag): a save sends it back to refuse overwriting a newer one. */
  revision: number | null;
  /** The token name that saved it; null when unknown. */
  savedBy: string | null;
}

/** A preview, or why the receiver cannot be previewed yet (its errors). */
export type PreviewOutcome = { kind: 'result'; result: PreviewResult } | { kind: 'invalid'; message: string; violations: Violation[] };

export type SaveOutcome =
  | { kind: 'saved'; document: Record<string, unknown>; lastModified: string | null; revision: number | null; savedBy: string | null; warnings: Violation[]; changes: ConfigChanges }
  | { kind: 'invalid'; violations: Violation[] }
  | { kind: 'conflict'; message: string };

export type { RouteAnswer, RouteRequest } from './route-request.js';

/**
 * Which agent a configuration request goes to when it is not the managed one ("copy this source
 * to…"): this agent itself, or one of its fleet through the proxy. Absent: the managed agent.
 */
export type AgentAt = { local: true } | { via: string };

const CONTRACTS = new Map<string, RouteContract>(ROUTES.map((route) => [route.id, route]));

export class ApiClient implements RouteCaller {
  constructor(
    private readonly transport: Transport,
    private readonly onUnauthorized: () => void,
  ) {}

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  /** The KPI endpoints (library, validation, evaluation). */
  readonly kpis = new KpiClient(this);

  /**
   * One request of a route, answered and parsed by its contract. A failed envelope is returned when
   * the route says what its failures carry (and it does); otherwise it is thrown as ApiRequestError.
   */
  async route<Id extends RouteId>(id: Id, request: RouteRequest<Id> = {}): Promise<RouteAnswer<Id>> {
    const contract = CONTRACTS.get(id)!;
    const sent: ApiRequest = {
      method: contract.method,
      ...(request.local || request.via ? { local: true } : {}),
      path: (request.via ? fleetProxyBase(request.via) : '') + pathOf(contract, request.params as Record<string, string> | undefined, request.query as Record<string, string | number | boolean | undefined> | undefined),
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.headers ? { headers: request.headers } : {}),
    };
    const { status, envelope } = await this.exchange(sent, contract);
    if (envelope.success) {
      const response = this.parse(contract.response, envelope.response, sent, status) as ResponseOf<Id>;
      const meta = (contract.meta ? this.parse(contract.meta, envelope.meta ?? {}, sent, status) : (envelope.meta ?? {})) as MetaOf<Id>;
      return { status, success: true, response, meta };
    }
    const failed = contract.failure?.safeParse(envelope.response);
    if (!failed?.success) throw failure(status, envelope);
    return { status, success: false, response: failed.data as FailureOf<Id>, meta: envelope.meta ?? {}, text: failureText(status, envelope) };
  }

  /** A request whose every failure is an error: the parsed response and meta. */
  async call<Id extends RouteId>(id: Id, request: RouteRequest<Id> = {}): Promise<{ response: ResponseOf<Id>; meta: MetaOf<Id> }> {
    const answer = await this.route(id, request);
    if (!answer.success) throw new ApiRequestError(answer.text, answer.status, answer.response);
    return { response: answer.response, meta: answer.meta };
  }

  private async exchange(request: ApiRequest, contract?: RouteContract): Promise<{ status: number; envelope: Envelope }> {
    let reply;
    try {
      reply = await this.transport.send(request);
    } catch (cause) {
      throw new ApiRequestError(unreachableText(cause), 0);
    }
    if (reply.status === 401) {
      this.onUnauthorized();
      throw new UnauthorizedError(catalogText('apiErrors.unauthorized'));
    }
    // A raw route (the OpenAPI document) answers its success bare; its failures keep the envelope.
    if (contract?.raw && reply.status >= 200 && reply.status < 300) return { status: reply.status, envelope: { success: true, response: reply.body } };
    const envelope = AnyEnvelopeSchema.safeParse(reply.body);
    if (!envelope.success) throw new ApiRequestError(catalogText('apiErrors.unreadable', { method: request.method, path: request.path, status: reply.status }), reply.status);
    return { status: reply.status, envelope: envelope.data };
  }

  private parse<T>(schema: z.ZodType<T>, value: unknown, request: ApiRequest, status: number): T {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ApiRequestError(catalogText('apiErrors.unexpectedForm', { method: request.method, path: request.path, detail: z.prettifyError(parsed.error) }), status);
    return parsed.data;
  }

  async config(at?: AgentAt): Promise<LoadedConfig> {
    const { response, meta } = await this.call('getConfig', { ...at });
    return { document: response, lastModified: meta.last_modified, revision: meta.revision, savedBy: meta.saved_by ?? null };
  }

  /**
   * A failed validation is an answer, not an error: status "failed" and the violations. Without
   * errors, `changes` says what saving would do to the running agent.
   */
  async validate(document: unknown, at?: AgentAt): Promise<ConfigValidation> {
    return (await this.route('validateConfig', { body: document, ...at })).response;
  }

  /** Saves; `expectedRevision` (the revision that was loaded) refuses overwriting a newer save. */
  async saveConfig(document: unknown, expectedRevision: number | null, at?: AgentAt): Promise<SaveOutcome> {
    let answer;
    try {
      answer = await this.route('saveConfig', { body: document, headers: expectedRevision === null ? {} : { 'If-Match': `"${expectedRevision}"` }, ...at });
    } catch (cause) {
      if (cause instanceof ApiRequestError && cause.status === 409) return { kind: 'conflict', message: cause.message };
      throw cause;
    }
    if (!answer.success) return { kind: 'invalid', violations: answer.response.violations };
    return { kind: 'saved', document: answer.response, lastModified: answer.meta.last_modified, revision: answer.meta.revision, savedBy: answer.meta.saved_by ?? null, warnings: answer.meta.violations ?? [], changes: answer.meta.changes };
  }

  /** What a receiver of the (unsaved) document would read; nothing is saved or committed. */
  async preview(request: PreviewRequest): Promise<PreviewOutcome> {
    const answer = await this.route('previewConfig', { body: request });
    if (answer.success) return { kind: 'result', result: answer.response };
    // 422: the receiver or the transforms have errors (the violations); other failures are thrown.
    return { kind: 'invalid', message: answer.text, violations: answer.response.violations };
  }

  /** Who this console is to the agent: token name, role, and whether the connection is encrypted. */
  async session(): Promise<Session> {
    return (await this.call('getSession')).response;
  }

  async tokens(): Promise<TokenInfo[]> {
    return (await this.call('listTokens')).response;
  }

  async createToken(name: string, role: Role): Promise<CreatedToken> {
    return (await this.call('createToken', { body: { name, role } })).response;
  }

  async revokeToken(name: string): Promise<string> {
    return (await this.call('revokeToken', { params: { name } })).response;
  }

  async status(): Promise<Status> {
    return (await this.call('getStatus')).response;
  }

  async agent(action: 'start' | 'stop' | 'restart'): Promise<AgentStatus> {
    const ids = { start: 'startAgent', stop: 'stopAgent', restart: 'restartAgent' } as const;
    return (await this.call(ids[action])).response;
  }

  async streams(): Promise<StreamRecord[]> {
    return (await this.call('listStreams')).response;
  }

  /** The data flow per minute over the last `minutes` minutes (current minute included). */
  async history(minutes: number): Promise<FlowHistory> {
    return (await this.call('getHistory', { query: { minutes } })).response;
  }

  async restream(request: RestreamRequest): Promise<string> {
    return (await this.call('restream', { body: request })).response;
  }

  /** This agent and the agents it manages, as last polled. */
  async fleet(): Promise<Fleet> {
    return (await this.call('getFleet')).response;
  }

  async addFleetAgent(agent: { name: string; url: string; token: string; fingerprint?: string }): Promise<FleetAgent> {
    return (await this.call('addFleetAgent', { body: agent })).response;
  }

  async removeFleetAgent(name: string): Promise<string> {
    return (await this.call('removeFleetAgent', { params: { name } })).response;
  }

  async pinFleetAgent(name: string, fingerprint: string): Promise<FleetAgent> {
    return (await this.call('pinFleetAgent', { params: { name }, body: { fingerprint } })).response;
  }

  /** The data flow of one agent of the fleet (null: this one), whichever agent the console manages. */
  async historyOf(agent: string | null, minutes: number): Promise<FlowHistory> {
    return (await this.call('getHistory', { query: { minutes }, ...(agent ? { via: agent } : { local: true }) })).response;
  }

  /** The OpenAPI document of the agent's API (GET /v1/openapi.json), for the API reference page. */
  async openApi(): Promise<Record<string, unknown>> {
    return (await this.call('openapi')).response;
  }

  /** Lines of a log, filtered by the agent over its rotated files (issue 38); see LogRead. */
  async log(name: LogView, options: LogReadOptions = {}): Promise<LogRead> {
    const { response, meta } = name === 'audit' ? await this.call('auditLog', { query: options }) : await this.call('namedLog', { params: { log_filename: name }, query: options });
    return { lines: response, newestLineAt: meta.newest_line_at, hasOlder: meta.has_older };
  }
}

export interface LogReadOptions {
  lines?: number;
  since?: string;
  until?: string;
  level?: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
  component?: string;
}

export interface LogRead {
  lines: string[];
  /** The log's newest line when it was read, whatever the filters: where following continues. */
  newestLineAt: string | null;
  /** The read stopped at `lines`: older matching lines may exist. */
  hasOlder: boolean;
}

function failureText(status: number, envelope: Envelope): string {
  return envelope.error?.text ?? (typeof envelope.response === 'string' ? envelope.response : catalogText('apiErrors.failed', { status }));
}

function failure(status: number, envelope: Envelope): ApiRequestError {
  return new ApiRequestError(failureText(status, envelope), status, envelope.response);
}
