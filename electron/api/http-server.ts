import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { type Logger, loggableRequest } from '../agent/index.js';
import { type ApiResponse, type Router, failure } from './router.js';
import { serveStatic } from './static-files.js';
import { type JsonBodyLimits, jsonBodyLimitsFor, parseJsonBody } from './json-body.js';
import { RefusalLog, webLogRefusals } from './refusal-log.js';
import type { Caller } from './auth/caller.js';
import type { TokenStore } from './auth/token-store.js';
import { isLoopbackHost } from './auth/loopback.js';
import { refusePlainHttp } from './plain-http-refusal.js';
import { ConnectionGate, MAX_UNFINISHED, MAX_UNFINISHED_PER_CLIENT } from './connection-gate.js';

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * HTTPS: TLS 1.2 with forward-secret AEAD suites only (ECDHE with AES-GCM or ChaCha20-Poly1305)
 * and TLS 1.3; no RSA key exchange, no CBC, no SHA-1. A handshake not done within a few seconds is
 * dropped (Node's default waits 120 s: issue 50).
 */
export const TLS_SETTINGS = {
  minVersion: 'TLSv1.2',
  ciphers: [
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'TLS_AES_128_GCM_SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
  ].join(':'),
  honorCipherOrder: true,
  handshakeTimeout: 5_000,
} as const;

export interface HttpServerOptions {
  router: Router;
  /** The tokens every /v1 request (and /metrics) must carry one of; the token's role decides the rest. */
  tokens: TokenStore;
  /** Serve HTTPS only (PEM certificate chain and key); plain HTTP on the port is refused. */
  tls?: { cert: string; key: string };
  host: string;
  port: number;
  /** Host names accepted besides the bound address, localhost and 127.0.0.1 (--allow-host). */
  allowedHosts?: readonly string[];
  /** Built console (dist/renderer); served at / for everything outside /v1. */
  consoleDirectory?: string;
  log: Logger;
  maxBodyBytes?: number;
  /** GET /metrics (Prometheus text format), behind the same token as /v1. */
  metrics?: { render(): Promise<{ contentType: string; body: string }> };
}

export interface RunningHttpServer {
  host: string;
  port: number;
  /** Whether the port speaks HTTPS. */
  tls: boolean;
  close(): Promise<void>;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** The host name of a Host header, without port and IPv6 brackets, lower case. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  const colon = trimmed.lastIndexOf(':');
  return colon >= 0 && trimmed.indexOf(':') === colon ? trimmed.slice(0, colon) : trimmed;
}

/**
 * DNS-rebinding protection: a browser tricked into calling us under a foreign name sends that name
 * in Host. IP literals cannot be rebound, so on a wildcard bind any IP literal is fine; names must
 * be the bound one, localhost, or given with --allow-host.
 */
export function isAllowedHost(header: string | undefined, boundHost: string, allowed: readonly string[] = []): boolean {
  const host = hostOf(header);
  if (!host) return false;
  const names = new Set(['localhost', '127.0.0.1', '::1', boundHost.toLowerCase(), ...allowed.map((h) => h.toLowerCase())]);
  if (names.has(host)) return true;
  return WILDCARDS.has(boundHost) && net.isIP(host) !== 0;
}

type BodyResult = { ok: true; value: unknown } | { ok: false; response: ApiResponse };

/** Reads and parses a JSON body, refusing more than `limit` bytes without buffering them. */
function readJsonBody(request: http.IncomingMessage, limit: number, shape: JsonBodyLimits): Promise<BodyResult> {
  const tooLarge = (): BodyResult => ({ ok: false, response: failure(413, `The request body is larger than ${limit / 1024 / 1024} MiB.`) });
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    request.resume();
    return Promise.resolve(tooLarge());
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    request.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => {
      if (!done) resolve({ ok: false, response: failure(400, 'The request body could not be read.') });
      done = true;
    });
    request.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      // Empty (or only a byte order mark and white space): no body. Searched, not copied.
      if (!/[^\s\uFEFF]/.test(text)) return resolve({ ok: true, value: undefined });
      const type = request.headers['content-type'] ?? '';
      if (type !== '' && !/^application\/(.+\+)?json\b/i.test(type))
        return resolve({ ok: false, response: failure(415, `Send JSON with Content-Type: application/json, not ${type}.`) });
      parseJsonBody(text, shape).then(
        (parsed) => resolve(parsed.ok ? parsed : { ok: false, response: failure(parsed.status, parsed.message) }),
        (cause: Error) => resolve({ ok: false, response: failure(400, `The request body could not be read: ${cause.message}`) }),
      );
    });
  });
}

function send(response: http.ServerResponse, result: ApiResponse, close = false): void {
  const body = JSON.stringify(result.body);
  response.writeHead(result.status, {
    ...result.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(close ? { Connection: 'close' } : {}),
  });
  response.end(body);
}

/** A log read stops when its client has taken nothing for this long: its files and its place are freed. */
export const STALLED_CLIENT_MS = 30_000;

/** Waits until the socket takes more; false when the client went away or stalled. */
function drained(response: http.ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      response.off('drain', onDrain);
      response.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), STALLED_CLIENT_MS);
    response.on('drain', onDrain);
    response.on('close', onClose);
  });
}

/**
 * An envelope whose list is read while it is sent: each piece waits until the socket took the
 * one before (backpressure), so a client that reads slowly or not at all costs a piece, not the list.
 */
async function sendStream(response: http.ServerResponse, result: ApiResponse & { stream: NonNullable<ApiResponse['stream']> }, valid: () => boolean): Promise<void> {
  const marker = '\u0000list\u0000';
  const [head, tail] = JSON.stringify({ ...result.body, response: marker }).split(JSON.stringify(marker)) as [string, string];
  response.writeHead(result.status, {
    ...result.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  // A client that reads slowly (or not at all) waits in drained(): revocation is looked at each
  // second as well, not only between pieces.
  const watch = setInterval(() => {
    if (!valid()) response.destroy();
  }, REVOCATION_CHECK_MS);
  watch.unref();
  try {
    let open = response.write(`${head}[`) || (await drained(response));
    for await (const piece of result.stream.json()) {
      // A token revoked while its answer streams ends the answer (a log read of minutes too).
      if (!open || response.destroyed || !valid()) break;
      open = response.write(piece) || (await drained(response));
    }
    if (open && !response.destroyed) response.end(`]${tail}`);
    else response.destroy();
  } finally {
    clearInterval(watch);
    await result.stream.close();
  }
}

/** How often a streamed answer looks whether its token was revoked meanwhile. */
const REVOCATION_CHECK_MS = 1000;

/** Prometheus scrapes: GET (or HEAD) only, never cached. */
async function sendMetrics(request: http.IncomingMessage, response: http.ServerResponse, method: string, metrics: NonNullable<HttpServerOptions['metrics']>): Promise<void> {
  request.resume();
  if (method !== 'GET' && method !== 'HEAD') return send(response, failure(405, `${method} is not allowed on /metrics; use GET.`, {}, { Allow: 'GET, HEAD' }));
  const { contentType, body } = await metrics.render();
  response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  response.end(method === 'HEAD' ? undefined : body);
}

/** Characters of a request's path and query in the web log; a refused request's are cut shorter. */
const LOGGED_PATH_CHARS = 2048;
const REFUSED_PATH_CHARS = 200;

/** The HTTP adapter: Host check, bearer auth and body limit in front of the router, plus the console. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const refusals = new RefusalLog(webLogRefusals(options.log));
  const session = { connection: options.tls ? 'https' : 'http', encrypted: Boolean(options.tls), insecure: !options.tls && !isLoopbackHost(options.host) } as const;
  const gate = new ConnectionGate({
    refused: (perClient, total, example) =>
      options.log.warn(
        `${perClient + total} connection(s) closed at once: ${perClient > 0 ? `${perClient} from a client (e.g. ${example}) that had ${MAX_UNFINISHED_PER_CLIENT} connections without a request` : ''}${perClient > 0 && total > 0 ? '; ' : ''}${total > 0 ? `${total} while ${MAX_UNFINISHED} connections had sent no request` : ''}.`,
      ),
  });
  const handle: http.RequestListener = async (request, response) => {
    gate.settle(request.socket);
    const started = process.hrtime.bigint();
    const url = new URL(request.url ?? '/', 'http://local');
    const method = (request.method ?? 'GET').slice(0, 16);
    let refused = false;
    let unauthenticated = false;
    const logLine = () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Console files need no token: a failed one (404 …) is anyone's request, logged like a refusal.
      if (unauthenticated && response.statusCode >= 400) refused = true;
      const line = `${method} ${loggableRequest(url, refused || unauthenticated ? REFUSED_PATH_CHARS : LOGGED_PATH_CHARS)} ${response.statusCode} ${ms.toFixed(1)}ms`;
      if (refused) refusals.note(line);
      else options.log.info(line);
    };
    // A streamed answer whose client went away ends with close, not finish: it is logged too.
    response.once('finish', () => {
      response.off('close', logLine);
      logLine();
    });
    response.once('close', logLine);
    try {
      if (!isAllowedHost(request.headers.host, options.host, options.allowedHosts)) {
        refused = true;
        request.resume();
        return send(response, failure(403, `Requests for host "${request.headers.host ?? ''}" are refused. Use ${options.host}, localhost or 127.0.0.1, or start with --allow-host.`));
      }
      const metrics = url.pathname === '/metrics' ? options.metrics : undefined;
      if (!metrics && url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) {
        unauthenticated = true;
        request.resume();
        return serveStatic(request, response, url.pathname, options.consoleDirectory);
      }
      const principal = options.tokens.authenticate(request.headers.authorization);
      if (!principal) {
        refused = true;
        request.resume();
        options.router.unauthenticated.note({ method, path: url.pathname });
        return send(response, failure(401, 'Missing or wrong API token: send Authorization: Bearer <token>. The token is in <data-dir>/api-token or TRIBUTARY_API_TOKEN.', {}, { 'WWW-Authenticate': 'Bearer' }));
      }
      if (metrics) return await sendMetrics(request, response, method, metrics);
      const body = await readJsonBody(request, limit, jsonBodyLimitsFor(method, url.pathname));
      if (!body.ok) return send(response, body.response, body.response.status === 413);
      const caller: Caller = { ...principal, ...session };
      const result = await options.router.dispatch(
        {
          caller,
          method,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: request.headers as Record<string, string | undefined>,
          body: body.value,
        },
        { stream: true },
      );
      if (result.stream) return await sendStream(response, { ...result, stream: result.stream }, () => options.tokens.holds(principal));
      send(response, result);
    } catch (cause) {
      options.log.error(`Unexpected error serving ${method} ${loggableRequest(url, LOGGED_PATH_CHARS)}`, cause);
      if (!response.headersSent) send(response, failure(500, 'Unexpected error in the server.'));
      else response.destroy();
    }
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key, ...TLS_SETTINGS }, handle)
    : http.createServer(handle);
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
  // HTTPS: a front socket server looks at the first byte of each connection; a TLS handshake goes
  // on to the HTTPS server, plain HTTP is answered "use https://" and closed, never processed.
  const listener = options.tls ? refusePlainHttp(server as https.Server) : server;
  listener.prependListener('connection', (socket: net.Socket) => gate.admit(socket));
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address() as AddressInfo;
  return {
    host: options.host,
    port: address.port,
    tls: Boolean(options.tls),
    close: () =>
      new Promise<void>((resolve) => {
        refusals.flush();
        gate.close();
        options.router.unauthenticated.flush();
        listener.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
