import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentRuntime, type AgentRuntimeOptions } from '../agent/index.js';
import { Router } from '../api/router.js';
import { type RunningHttpServer, startHttpServer } from '../api/http-server.js';

/** Where Tributary keeps its data when --data-dir is not given. */
export function defaultDataDirectory(): string {
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? os.homedir(), 'Tributary');
  return path.join(os.homedir(), '.tributary');
}

/**
 * The API token: TRIBUTARY_API_TOKEN when set, else the one in <data-dir>/api-token, created on
 * first start (mode 0600: whoever can read it controls the agent).
 */
export function loadOrCreateToken(dataDirectory: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.TRIBUTARY_API_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const file = path.join(dataDirectory, 'api-token');
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
  }
  const token = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

export interface HostOptions extends Omit<AgentRuntimeOptions, 'dataDirectory'> {
  dataDirectory: string;
  http?: { host: string; port: number; allowedHosts?: readonly string[]; consoleDirectory?: string };
  env?: NodeJS.ProcessEnv;
}

export interface Host {
  runtime: AgentRuntime;
  router: Router;
  token: string;
  http?: RunningHttpServer;
  close(): Promise<void>;
}

/** Composition root shared by the headless server and the desktop app. */
export async function createHost(options: HostOptions): Promise<Host> {
  fs.mkdirSync(options.dataDirectory, { recursive: true, mode: 0o700 });
  const token = loadOrCreateToken(options.dataDirectory, options.env);
  const runtime = new AgentRuntime(options);
  const router = new Router(runtime);
  await runtime.init();
  let http: RunningHttpServer | undefined;
  try {
    if (options.http)
      http = await startHttpServer({ router, token, log: runtime.webLog, ...options.http });
  } catch (cause) {
    await runtime.dispose();
    throw cause;
  }
  return {
    runtime,
    router,
    token,
    http,
    close: async () => {
      await http?.close();
      await runtime.dispose();
    },
  };
}
