import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';

/** The agent presents a certificate other than the pinned one: nothing was sent to it. */
export class CertificateChangedError extends Error {
  constructor(
    readonly presented: string,
    readonly pinned: string,
  ) {
    super(`certificate changed: the agent presents ${presented}, but ${pinned} is pinned; an admin must re-pin it before anything is sent to it`);
  }
}

/** No answer: refused, reset, a timeout, a name that does not resolve. */
export class UnreachableError extends Error {}

export interface RemoteReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Bytes of `budget` this answer holds: the caller gives them back when done with the body. */
  reserved: number;
}

/**
 * Bytes of answers held at once by all requests that share it: four agents answering 60 MB each
 * at the same time must not take the memory up (issue 50).
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get held(): number {
    return this.used;
  }
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

export interface RemoteRequest {
  method: string;
  /** Path and query on the agent, e.g. /v1/status. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
  /** Bytes of answer accepted; more is an error (a hostile or broken peer cannot fill our memory). */
  maxBytes: number;
  /** Shared with other requests: their answers together may hold at most its limit. */
  budget?: ByteBudget;
}

/**
 * HTTPS connections that check the peer's certificate against the pinned SHA-256 before the request
 * (and its token) is written: the socket is handed to http only after the check. Agents use
 * self-signed certificates, so the chain is not checked; the pin is the trust (docs/fleet.md).
 */
class PinnedAgent extends https.Agent {
  constructor(
    private readonly pinned: string | null,
    private readonly seen: (fingerprint: string) => void,
  ) {
    super({ keepAlive: true, maxSockets: 4, maxCachedSessions: 0, rejectUnauthorized: false, timeout: 30_000 });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void): undefined {
    let done = false;
    const finish = (error: Error | null, socket?: Duplex) => {
      if (done) return;
      done = true;
      callback?.(error, socket as Duplex);
    };
    const socket = tls.connect({ ...(options as tls.ConnectionOptions), rejectUnauthorized: false });
    socket.once('secureConnect', () => {
      const presented = socket.getPeerCertificate()?.fingerprint256 ?? '';
      this.seen(presented);
      if (this.pinned && presented !== this.pinned) {
        socket.destroy();
        return finish(new CertificateChangedError(presented, this.pinned));
      }
      finish(null, socket);
    });
    socket.once('error', (error) => finish(error));
    return undefined;
  }
}

/**
 * One added agent's connection: keep-alive, its pin, its token. `pinned` null on https means trust
 * on first use: the certificate seen is reported (`presented`) and the caller decides to pin it.
 */
export class RemoteLink {
  readonly url: URL;
  private readonly agent: http.Agent;
  /** SHA-256 of the certificate seen on the newest connection (https). */
  presented: string | null = null;

  constructor(
    url: string,
    private readonly token: string,
    readonly pinned: string | null,
  ) {
    this.url = new URL(url);
    this.agent =
      this.url.protocol === 'https:'
        ? new PinnedAgent(pinned, (fingerprint) => (this.presented = fingerprint))
        : new http.Agent({ keepAlive: true, maxSockets: 4, timeout: 30_000 });
  }

  get https(): boolean {
    return this.url.protocol === 'https:';
  }

  request(request: RemoteRequest): Promise<RemoteReply> {
    const base = this.url.pathname.replace(/\/+$/, '');
    const send = this.https ? https.request : http.request;
    return new Promise((resolve, reject) => {
      let settled = false;
      let reserved = 0;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.budget?.give(reserved);
        reserved = 0;
        reject(error instanceof CertificateChangedError || error instanceof UnreachableError ? error : new UnreachableError(error.message));
      };
      const outgoing = send(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port || (this.https ? 443 : 80),
          method: request.method,
          path: `${base}${request.path}`,
          agent: this.agent,
          headers: {
            Accept: 'application/json',
            Authorization: `Bearer ${this.token}`,
            ...(request.body ? { 'Content-Type': 'application/json', 'Content-Length': String(request.body.length) } : {}),
            ...request.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (settled) return;
            size += chunk.length;
            if (size > request.maxBytes) {
              response.destroy();
              fail(new UnreachableError(`the answer is larger than ${mib(request.maxBytes)}`));
              return;
            }
            if (request.budget) {
              if (!request.budget.take(chunk.length)) {
                response.destroy();
                fail(new UnreachableError(`the answers of fleet agents received at once would hold more than ${mib(request.budget.limit)}; try again`));
                return;
              }
              reserved += chunk.length;
            }
            chunks.push(chunk);
          });
          response.on('error', fail);
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), reserved });
          });
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy();
        fail(new UnreachableError(`no answer within ${request.timeoutMs / 1000} s`));
      }, request.timeoutMs);
      outgoing.on('error', fail);
      outgoing.end(request.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
