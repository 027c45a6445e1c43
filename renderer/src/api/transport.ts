/** What the API client needs from a transport: one request in, HTTP status and JSON body out. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with query string, e.g. /v1/log/stream/agent_web.log?lines=100. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** To this agent even while the console manages another one (the Agents page's own rows). */
  local?: boolean;
}

export interface RawReply {
  status: number;
  /** Parsed JSON body; undefined when the body was empty or not JSON. */
  body: unknown;
}

export interface Transport {
  readonly kind: 'http' | 'ipc';
  send(request: ApiRequest): Promise<RawReply>;
}
