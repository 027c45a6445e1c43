/**
 * Issue 50 point 7d: what fleet agents answer is bounded. Four agents answering 60 MB at once took
 * the desk's agent to 867 MB, and a remote's 3 MB error text was passed into GET /v1/fleet. A
 * loopback server plays the hostile agents (it answers well first, so that it can be added).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetAgent } from '../../../shared/api/fleet.js';
import { ApiError } from '../../../shared/api/errors.js';
import { FleetService, PROXY_BUDGET_BYTES, PROXY_BYTES, REMOTE_TEXT_CHARS } from './fleet-service.js';
import { FleetStore } from './fleet-store.js';

const row = (version = '0.1.0'): FleetAgent => ({
  name: 'remote', url: 'local', reachable: true, state: 'running', health: 'ok', last_seen: null, version,
  revision: 1, streams: { total: 0, flowing: 0, stale: 0 }, backlog_records: 0, error: null, self: true,
  fingerprint: null, presented_fingerprint: null,
});

type Mode = 'good' | 'error-3mb' | 'error-500kb' | 'long-version';
let mode: Mode = 'good';
let server: http.Server;
let url: string;
let hugeSent = 0;

/** 60 MB of a JSON envelope, written as the reader takes it. */
function hugeAnswer(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"success":true,"response":["');
  const chunk = Buffer.alloc(1 << 20, 0x61);
  let sent = 0;
  const more = () => {
    while (sent < 60) {
      sent += 1;
      hugeSent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    response.end('"]}');
  };
  response.on('close', () => (sent = 60));
  more();
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url?.startsWith('/v1/logs')) return hugeAnswer(response);
    if (mode === 'error-3mb' || mode === 'error-500kb') {
      response.writeHead(500, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ success: false, response: {}, error: { code: 500, text: 'E'.repeat(mode === 'error-3mb' ? 3 << 20 : 500 << 10) } }));
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ success: true, response: { agents: [row(mode === 'long-version' ? 'v'.repeat(500 << 10) : '0.1.0')] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function fleet() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-fleet-bounds-'));
  const service = new FleetService({ store: new FleetStore(path.join(directory, 'fleet.json')), self: () => ({ ...row(), name: 'desk' }), pollIntervalMs: 200 });
  return { service, close: () => (service.close(), fs.rmSync(directory, { recursive: true, force: true })) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('fleet answers bounded', () => {
  it("a remote's error text of 3 MB, of 500 KB, or a 500 KB version never passes into GET /v1/fleet", async () => {
    mode = 'good';
    const { service, close } = fleet();
    try {
      await service.add({ name: 'line-1', url, token: 'token-0123456789' });
      const remote = () => service.list()[1]!;
      const sizes: number[] = [];
      for (const hostile of ['error-3mb', 'error-500kb', 'long-version'] as const) {
        mode = hostile;
        await until(() => remote().error !== null, `the poll after ${hostile}`);
        expect(remote().error!.length, hostile).toBeLessThan(REMOTE_TEXT_CHARS + 200);
        sizes.push(JSON.stringify(service.list()).length);
        mode = 'good';
        await until(() => remote().error === null, 'a good poll again');
      }
      expect(Math.max(...sizes)).toBeLessThan(4096);
      expect(remote().version).toBe('0.1.0');
    } finally {
      close();
    }
  }, 60_000);

  it('four agents answering 60 MB at once: each is an error, and the memory they take stays within the budget', async () => {
    mode = 'good';
    const { service, close } = fleet();
    try {
      for (let i = 0; i < 4; i += 1) await service.add({ name: `line-${i}`, url, token: `token-${i}-0123456789` });
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const results = await Promise.allSettled(
        [0, 1, 2, 3].map((i) => service.forward(`line-${i}`, { method: 'GET', path: '/v1/logs/agent_core.log?lines=100000', headers: {} })),
      );
      clearInterval(sampler);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const error = (result as PromiseRejectedResult).reason as ApiError;
        expect(error).toBeInstanceOf(ApiError);
        expect(error.status).toBe(502);
        expect(error.message).toMatch(/larger than 16 MiB|more than 32 MiB/);
      }
      // 240 MB were offered; what was held is the budget (and the sender's buffers), not the answers.
      expect(peak - before).toBeLessThan(PROXY_BUDGET_BYTES + 96 * 1024 * 1024);
      expect(hugeSent).toBeLessThan(4 * 60 * 1024 * 1024);
      // The budget is given back: a small answer still goes through.
      mode = 'good';
      expect((await service.forward('line-0', { method: 'GET', path: '/v1/fleet', headers: {} })).status).toBe(200);
      expect(PROXY_BYTES).toBeLessThanOrEqual(PROXY_BUDGET_BYTES);
    } finally {
      close();
    }
  }, 60_000);
});
