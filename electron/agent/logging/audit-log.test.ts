import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { StorageHealth } from '../disk/storage-health.js';
import { StorageRecovery } from '../disk/storage-recovery.js';
import { SystemClock } from '../time/clock.js';
import { AgentLogs } from './agent-logs.js';

function logs(maxBytes: number, secrets: string[] = []) {
  const directory = tempDirectory();
  const clock = new SystemClock();
  const storage = new StorageHealth(clock);
  return { directory, logs: new AgentLogs({ directory, clock, storage, recovery: new StorageRecovery(storage), maxBytes, keep: 2, secrets }) };
}

describe('audit.log', () => {
  it('is rotated like the other logs', () => {
    const { directory, logs: agentLogs } = logs(400);
    for (let i = 0; i < 20; i += 1) agentLogs.audit.record({ token: 'ops', role: 'operator', method: 'POST', path: '/v1/agent/stop', status: 200, outcome: 'ok' });
    agentLogs.close();
    expect(fs.existsSync(path.join(directory, 'audit.log.1'))).toBe(true);
    expect(fs.existsSync(path.join(directory, 'audit.log.3'))).toBe(false);
    expect(fs.statSync(path.join(directory, 'audit.log')).size).toBeLessThanOrEqual(400);
  });

  it('keeps one entry on one line whatever a path holds, and never writes a known secret', () => {
    const secret = 'bootstrap-secret-0123456789';
    const { directory, logs: agentLogs } = logs(1024 * 1024, [secret]);
    agentLogs.audit.record({ token: '-', role: '-', method: 'DELETE', path: `/v1/kpis/a\nforged | token=admin | ${secret}`, status: 401, outcome: 'unauthenticated' });
    agentLogs.audit.record({ token: 'eng', role: 'admin', method: 'POST', path: '/v1/config', status: 200, outcome: 'ok', revision: 7 });
    agentLogs.close();
    const lines = fs.readFileSync(path.join(directory, 'audit.log'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('DELETE /v1/kpis/a\\x0aforged \\x7c token=admin \\x7c ********');
    expect(lines[0]).not.toContain(secret);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6} \| token=eng \| role=admin \| POST \/v1\/config \| 200 ok \| revision=7$/);
  });
});
