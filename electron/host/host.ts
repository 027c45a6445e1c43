import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentRuntime, type AgentRuntimeOptions, assembleAgent } from '../agent/index.js';
import { Router } from '../api/router.js';
import { type RunningHttpServer, startHttpServer } from '../api/http-server.js';
import { MetricsExporter } from '../api/metrics.js';
import { TOKENS_FILE_NAME, TokenStore } from '../api/auth/token-store.js';
import { isLoopbackHost } from '../api/auth/loopback.js';
import { type TlsMaterial, loadTlsMaterial } from './tls/tls-certificate.js';
import { describeMachine } from './machine-identity.js';
import { FleetService } from '../api/fleet/fleet-service.js';
import { FLEET_FILE_NAME, FleetStore } from '../api/fleet/fleet-store.js';
import { selfSummary } from '../api/fleet/self-summary.js';

/** Where Tributary keeps its data when --data-dir is not given. */
export function defaultDataDirectory(): string {
  // The Linux package's /usr/bin/tributary sets it (/var/lib/tributary).
  if (process.env.TRIBUTARY_DATA_DIR) return process.env.TRIBUTARY_DATA_DIR;
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? os.homedir(), 'Tributary');
  return path.join(os.homedir(), '.tributary');
}

/**
 * Shortest TRIBUTARY_API_TOKEN accepted. Whoever holds the token controls the agent; 16 characters
 * of a random password generator are beyond guessing over the network (the generated token has 43).
 */
export const MIN_TOKEN_LENGTH = 16;

/** The API token cannot be used (too short): the message says what to do. */
export class TokenError extends Error {}

export interface LoadedToken {
  token: string;
  /** Why the generated token could not be stored (it then holds for this run only). */
  unsaved?: string;
}

/**
 * The API token: TRIBUTARY_API_TOKEN when set, else the one in <data-dir>/api-token, created on
 * first start (mode 0600: whoever can read it controls the agent). A token that cannot be stored
 * (full disk) is used for this run and reported; a TRIBUTARY_API_TOKEN shorter than
 * MIN_TOKEN_LENGTH is refused with TokenError.
 */
export function loadOrCreateToken(dataDirectory: string, env: NodeJS.ProcessEnv = process.env): LoadedToken {
  const fromEnv = env.TRIBUTARY_API_TOKEN?.trim();
  if (fromEnv) {
    if (fromEnv.length < MIN_TOKEN_LENGTH)
      throw new TokenError(`TRIBUTARY_API_TOKEN is ${fromEnv.length} character(s) long; use at least ${MIN_TOKEN_LENGTH} (whoever guesses it controls the agent), or unset it to have one generated in ${path.join(dataDirectory, 'api-token')}.`);
    return { token: fromEnv };
  }
  const file = path.join(dataDirectory, 'api-token');
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored) return { token: stored };
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
  }
  const token = crypto.randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  } catch (cause) {
    fs.rmSync(file, { force: true });
    return { token, unsaved: `The API token could not be stored in ${file} (${(cause as Error).message}); it holds until the agent restarts.` };
  }
  return { token };
}

/** Plain HTTP on an address other machines reach, without --allow-insecure-http: the message names --tls. */
export class InsecureBindError extends Error {}

export interface HttpHostOptions {
  host: string;
  port: number;
  allowedHosts?: readonly string[];
  consoleDirectory?: string;
  /** HTTPS (--tls): with the plant's own files, or a self-signed certificate in <data-dir>/tls/. */
  tls?: { certFile?: string; keyFile?: string };
  /** Plain HTTP on a non-loopback address anyway (--allow-insecure-http); the console says so in red. */
  allowInsecureHttp?: boolean;
}

/** Refuses plain HTTP on an address other machines reach unless the user insisted. */
export function checkBind(options: HttpHostOptions): void {
  if (options.tls || options.allowInsecureHttp || isLoopbackHost(options.host)) return;
  throw new InsecureBindError(
    `Refusing to serve plain HTTP on ${options.host}: API tokens and plant data would cross the network readable by anyone on it. ` +
      'Start with --tls (HTTPS; a self-signed certificate is made in <data-dir>/tls/, or give --tls-cert and --tls-key), ' +
      'or with --allow-insecure-http if you must.',
  );
}

export interface HostOptions extends Omit<AgentRuntimeOptions, 'dataDirectory'> {
  dataDirectory: string;
  http?: HttpHostOptions;
  env?: NodeJS.ProcessEnv;
  /** Log what this PC is at start (the product: serve and the desktop app; not the tests' hosts). */
  logMachine?: boolean;
}

export interface Host {
  runtime: AgentRuntime;
  router: Router;
  token: string;
  tokens: TokenStore;
  /** The agents managed from this one (docs/fleet.md). */
  fleet: FleetService;
  http?: RunningHttpServer;
  /** The HTTPS certificate in use (--tls). */
  tls?: TlsMaterial;
  close(): Promise<void>;
}

/** Composition root shared by the headless server and the desktop app. */
export async function createHost(options: HostOptions): Promise<Host> {
  try {
    fs.mkdirSync(options.dataDirectory, { recursive: true, mode: 0o700 });
  } catch {
    // A data directory that cannot be created (full disk): the agent still comes up and says why.
  }
  if (options.http) checkBind(options.http);
  const { token, unsaved } = loadOrCreateToken(options.dataDirectory, options.env);
  const runtime = assembleAgent({ ...options, logSecrets: [...(options.logSecrets ?? []), token], describeMachine: options.logMachine ? describeMachine : undefined });
  const tokens = new TokenStore({ file: path.join(options.dataDirectory, TOKENS_FILE_NAME), bootstrapToken: token, warn: (message) => runtime.webLog.warn(message) });
  // This agent's own row of the fleet: its address is known once the server listens.
  let selfUrl = 'local';
  const selfName = os.hostname() || 'this agent';
  const fleet = new FleetService({
    store: new FleetStore(path.join(options.dataDirectory, FLEET_FILE_NAME), options.secretCodec, (message) => runtime.webLog.warn(message)),
    self: () => selfSummary(runtime, selfName, selfUrl),
    warn: (message) => runtime.webLog.warn(message),
    tokens: (values) => runtime.redactInLogs('fleet', values),
  });
  const router = new Router(runtime, { tokens, fleet });
  if (unsaved) runtime.webLog.warn(unsaved);
  await runtime.init();
  let http: RunningHttpServer | undefined;
  let tls: TlsMaterial | undefined;
  try {
    if (options.http) {
      const { tls: tlsFiles, allowInsecureHttp: _insecure, ...listen } = options.http;
      if (tlsFiles) tls = await loadTlsMaterial({ dataDirectory: options.dataDirectory, host: listen.host, ...tlsFiles, log: (message) => runtime.webLog.info(message) });
      http = await startHttpServer({ router, tokens, log: runtime.webLog, metrics: new MetricsExporter(runtime), ...listen, tls: tls && { cert: tls.cert, key: tls.key } });
    }
    if (http) selfUrl = `${http.tls ? 'https' : 'http'}://${http.host.includes(':') ? `[${http.host}]` : http.host}:${http.port}`;
  } catch (cause) {
    fleet.close();
    await runtime.dispose();
    throw cause;
  }
  return {
    runtime,
    router,
    token,
    tokens,
    fleet,
    http,
    tls,
    close: async () => {
      fleet.close();
      await http?.close();
      await runtime.dispose();
    },
  };
}
