/**
 * 20 clients asking for 100,000 log lines and reading nothing took the agent from 196 MB to 2.2 GB
 * and blocked status for 15.8 s (issue 39): each answer was built whole in memory and handed to a
 * socket that never drained. Now lines are read while they are sent, a piece at a time as the
 * client takes them, and at most 3 such large reads run at once (429 beyond). The agent runs as a
 * real process on a data directory whose web log already holds 100,000 lines of ~600 bytes.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSpecTimestamp } from '../../shared/api/envelope.js';
import { waitFor } from '../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LINES = 100_000;

function fillWebLog(dataDirectory: string): void {
  const directory = path.join(dataDirectory, 'logs');
  fs.mkdirSync(directory, { recursive: true });
  const start = 1_767_600_000_000_000n;
  const fd = fs.openSync(path.join(directory, 'agent_web.log'), 'w');
  for (let block = 0; block < LINES; block += 10_000) {
    let text = '';
    for (let i = block; i < block + 10_000; i += 1) text += `${formatSpecTimestamp(start + BigInt(i) * 1000n)} | http | api | INFO | GET /v1/status?n=${i}&pad=${'p'.repeat(520)} 200 0.4ms\n`;
    fs.writeSync(fd, text);
  }
  fs.closeSync(fd);
}

function rssMegabytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) / 1024;
}

/** A client that sends the request, reads the status line, then stops reading. */
function stalledClient(agent: ServeProcess): Promise<{ socket: net.Socket; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(agent.port, '127.0.0.1', () => {
      socket.write(`GET /v1/log/stream/agent_web.log?lines=${LINES} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${agent.token}\r\n\r\n`);
    });
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1]) });
    });
    socket.once('error', reject);
  });
}

async function statusWithinASecond(agent: ServeProcess): Promise<void> {
  const reply = await fetch(`http://127.0.0.1:${agent.port}/v1/status`, { headers: { authorization: `Bearer ${agent.token}` }, signal: AbortSignal.timeout(1000) });
  expect(reply.status).toBe(200);
}

describe('log streaming to clients that do not read', () => {
  it('20 stalled clients of 100,000 lines cost megabytes, status answers, and the lines come whole to a client that reads', async () => {
    const dataDirectory = tempDirectory('tributary-log-clients-');
    fillWebLog(dataDirectory);
    const agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    cleanups.push(() => agent.crash());
    await statusWithinASecond(agent);
    const before = rssMegabytes(agent.child.pid!);

    const clients = await Promise.all(Array.from({ length: 20 }, () => stalledClient(agent)));
    cleanups.push(() => clients.forEach((c) => c.socket.destroy()));
    const statuses = clients.map((c) => c.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    for (let i = 0; i < 5; i += 1) await statusWithinASecond(agent);
    // Each stalled answer holds what its socket holds, not its 60 MB of lines.
    expect(rssMegabytes(agent.child.pid!) - before).toBeLessThan(150);

    // The console's follow-up read asks for 100,000 lines after a time: few lines, never refused.
    const followUp = await agent.call('GET', `/v1/log/stream/agent_web.log?lines=${LINES}&since=2026-01-05%2009:00:00`);
    expect(followUp.status).toBe(200);
    expect(followUp.json.response.length).toBeGreaterThan(0);
    expect(followUp.json.response.length).toBeLessThan(100);

    // Gone clients free their places: a client that reads gets every line, oldest first.
    for (const client of clients) client.socket.destroy();
    const whole = await waitFor(
      async () => {
        const reply = await agent.call('GET', `/v1/log/stream/agent_web.log?lines=${LINES}`);
        return reply.status === 200 && (reply.json.response as string[]);
      },
      20_000,
      'a large read to be accepted again',
    );
    expect(whole.length).toBe(LINES);
    // The newest lines: the end of the filled log, then the requests this test made, in order.
    const filled = whole.filter((line) => line.includes('&pad='));
    expect(filled[0]).toContain(`GET /v1/status?n=${LINES - filled.length}&`);
    expect(filled.at(-1)).toContain(`GET /v1/status?n=${LINES - 1}&`);
    expect(whole.slice(filled.length).some((line) => line.includes(`GET /v1/log/stream/agent_web.log?lines=${LINES} 429`))).toBe(true);
    await statusWithinASecond(agent);
  }, 120_000);
});
