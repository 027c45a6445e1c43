import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHost, type Host, type HostOptions } from '../host/host.js';

export interface TestServer {
  host: Host;
  dataDirectory: string;
  url: string;
  token: string;
  /** fetch against the server with the bearer token (unless headers override it). */
  call(method: string, pathAndQuery: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; json: any }>;
  close(): Promise<void>;
}

export function tempDirectory(prefix = 'tributary-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A real server on a free loopback port with a fresh data directory. */
export async function startTestServer(options: Partial<HostOptions> = {}): Promise<TestServer> {
  const dataDirectory = options.dataDirectory ?? tempDirectory();
  const host = await createHost({
    machineInfoIntervalMs: 60_000,
    stopTimeoutMs: 2000,
    // Test plants write their CSV output next to their drop folders, in the temp folder.
    allowWrite: [os.tmpdir()],
    ...options,
    dataDirectory,
    env: options.env ?? { TRIBUTARY_API_TOKEN: 'test-token-0123456789' },
    http: { host: '127.0.0.1', port: 0, ...options.http },
  });
  const url = `http://127.0.0.1:${host.http!.port}`;
  return {
    host,
    dataDirectory,
    url,
    token: host.token,
    async call(method, pathAndQuery, body, headers = {}) {
      const response = await fetch(`${url}${pathAndQuery}`, {
        method,
        headers: {
          authorization: `Bearer ${host.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: response.status, headers: response.headers, json };
    },
    close: () => host.close(),
  };
}
