import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FleetAgent } from '../../../shared/api/fleet.js';
import type { AgentRuntime } from '../../agent/index.js';

/** A stream is flowing when its newest record was read within this time; stale otherwise. */
export const FLOWING_WITHIN_MS = 5 * 60_000;

let version: string | undefined;

/** Tributary's version: the package.json above this file (the source tree, dist/ or the desktop app's archive). */
export function productVersion(): string {
  if (version) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'tributary' && parsed.version) return (version = parsed.version);
    } catch {
      // Not here: one folder up.
    }
    dir = path.dirname(dir);
  }
  return (version = 'unknown');
}

/** This agent's own row of GET /v1/fleet (and what a desk's agent reads when it polls this one). */
export function selfSummary(runtime: AgentRuntime, name: string, url: string, now = Date.now()): FleetAgent {
  const status = runtime.status();
  const streams = runtime.streams();
  const flowing = streams.filter((s) => s.stats.last_record_at !== null && now - Date.parse(s.stats.last_record_at) <= FLOWING_WITHIN_MS).length;
  const degraded = Object.values(status.agent.services).some((s) => s.health === 'degraded') || (status.agent.problems?.length ?? 0) > 0;
  const backlog = Object.values(status.last_data_transmit).reduce((sum, t) => sum + t.backlog_records, 0);
  return {
    name,
    url,
    reachable: true,
    state: status.agent.status,
    health: degraded || status.agent.status === 'failed' ? 'degraded' : 'ok',
    last_seen: new Date(now).toISOString(),
    version: productVersion(),
    revision: runtime.configRevision(),
    streams: { total: streams.length, flowing, stale: streams.length - flowing },
    backlog_records: backlog,
    error: null,
    self: true,
    fingerprint: null,
    presented_fingerprint: null,
  };
}
