/**
 * Polling that scales (issue 34 point 2): each agent at most every poll interval (start to start),
 * and never more polls at once than the bound, whatever the fleet's size. Six agents answered by one
 * slow loopback server, with a short interval so that a few rounds take seconds.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetAgent } from '../../../shared/api/fleet.js';
import { FleetService } from './fleet-service.js';
import { FleetStore } from './fleet-store.js';

const INTERVAL_MS = 400;
const CONCURRENCY = 2;
const ANSWER_MS = 150;

const row = (name: string): FleetAgent => ({
  name, url: 'local', reachable: true, state: 'running', health: 'ok', last_seen: null, version: '0.1.0',
  revision: 1, streams: { total: 0, flowing: 0, stale: 0 }, backlog_records: 0, error: null, self: true,
  fingerprint: null, presented_fingerprint: null,
});

let server: http.Server;
let url: string;
let inFlight = 0;
let mostInFlight = 0;
/** When each token's polls arrived. */
const arrivals = new Map<string, number[]>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    arrivals.set(token, [...(arrivals.get(token) ?? []), Date.now()]);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: true, response: { agents: [row(token)] } }));
    }, ANSWER_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fleet polling', () => {
  it('polls each agent at most every interval and never more than the bound at once', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-fleet-polling-'));
    const fleet = new FleetService({
      store: new FleetStore(path.join(directory, 'fleet.json')),
      self: () => row('desk'),
      pollIntervalMs: INTERVAL_MS,
      concurrency: CONCURRENCY,
    });
    try {
      const tokens = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => `token-${letter}-0123456789`);
      for (const [index, token] of tokens.entries()) await fleet.add({ name: `line-${index}`, url, token });
      // Adding contacts each agent once, one after the other: only the polls count from here.
      mostInFlight = 0;
      for (const token of tokens) arrivals.set(token, []);

      // Six agents answering in 150 ms, two at a time: a round takes longer than the interval.
      const deadline = Date.now() + 20_000;
      while (tokens.some((token) => (arrivals.get(token)?.length ?? 0) < 4) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const token of tokens) {
        const times = arrivals.get(token)!;
        expect(times.length, token).toBeGreaterThanOrEqual(4);
        // Start to start as the agent sees it; a few ms of slack for the loopback hop.
        const gaps = times.slice(1).map((time, i) => time - times[i]!);
        expect(Math.min(...gaps), token).toBeGreaterThanOrEqual(INTERVAL_MS - 20);
      }
      expect(mostInFlight).toBeLessThanOrEqual(CONCURRENCY);
      expect(mostInFlight).toBe(CONCURRENCY);
      expect(fleet.list().slice(1).every((agent) => agent.reachable && agent.error === null)).toBe(true);
    } finally {
      fleet.close();
      fs.rmSync(directory, { recursive: true, force: true });
    }
  }, 30_000);
});
