/**
 * Issue 38 point 1: GET /v1/log/stream/<name> filters by level, component and time over the rotated
 * files, so an outage's warnings are found after thousands of later lines pushed them out of the newest.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSpecTimestamp } from '../../shared/api/envelope.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

/** 40 minutes ago, in whole seconds: the oldest rotated file starts here; a line every 0.3 s after it (30 min). */
const START = (BigInt(Date.now()) / 1000n - 40n * 60n) * 1_000_000n;
const at = (tick: number) => formatSpecTimestamp(START + BigInt(tick) * 300_000n);
const line = (second: number, component: string, level: string, text: string) => `${at(second)} | main | ${component} | ${level} | ${text}`;

/**
 * agent_core.log.3: an upload outage at ticks 0–9 (9 warnings, 1 error, among reads);
 * .2 and .1: 3,000 routine lines each, one a tick later; the current file is the agent's own.
 */
function writeRotatedLogs(logs: string): { outage: string[]; all: string[] } {
  fs.mkdirSync(logs, { recursive: true });
  const outage: string[] = [];
  const oldest: string[] = [];
  for (let s = 0; s < 9; s += 1) {
    oldest.push(line(s, 'receiver:plant', 'INFO', `line${s}.csv: 10 records read`));
    const warning = line(s, 'transmit:cloud', 'WARNING', `Cannot reach https://cloud.example/v1/rdp2/sslogs (ECONNREFUSED). Records are kept (${s * 10} waiting).`);
    oldest.push(warning);
    outage.push(warning);
  }
  const error = line(9, 'transmit:cloud', 'ERROR', 'The outbox cannot be read: disk I/O error');
  oldest.push(error);
  outage.push(error);
  const generation = (from: number) => Array.from({ length: 3000 }, (_, i) => line(from + i, i % 2 === 0 ? 'transmit:cloud' : 'receiver:plant', i % 3 === 0 ? 'DEBUG' : 'INFO', `routine ${from + i}`));
  const middle = generation(10);
  const newest = generation(3010);
  fs.writeFileSync(path.join(logs, 'agent_core.log.3'), `${oldest.join('\n')}\n`);
  fs.writeFileSync(path.join(logs, 'agent_core.log.2'), `${middle.join('\n')}\n`);
  fs.writeFileSync(path.join(logs, 'agent_core.log.1'), `${newest.join('\n')}\n`);
  return { outage, all: [...oldest, ...middle, ...newest] };
}

let server: TestServer;
let written: ReturnType<typeof writeRotatedLogs>;
const read = async (query: string) => {
  const { status, json } = await server.call('GET', `/v1/log/stream/agent_core.log?${query}`);
  return { status, json, lines: json.response as string[] };
};

beforeAll(async () => {
  const dataDirectory = tempDirectory('tributary-log-filters-');
  written = writeRotatedLogs(path.join(dataDirectory, 'logs'));
  server = await startTestServer({ dataDirectory });
});
afterAll(async () => {
  await server.close();
});

describe('GET /v1/log/stream/<name> filters over the rotated files', () => {
  it('without filters answers the newest lines as before, saying older ones exist and when the newest line was', async () => {
    const { lines, json } = await read('lines=50');
    expect(lines).toHaveLength(50);
    expect(lines.join('\n')).toContain('Tributary agent starting');
    expect(json.meta.has_older).toBe(true);
    expect(json.meta.newest_line_at).toBe(lines.at(-1)!.slice(0, 26));
  });

  it('level=WARNING finds the outage 6,000 lines back: its warnings and its error, no routine line', async () => {
    const { status, lines, json } = await read('level=WARNING&component=transmit%3Acloud&lines=1000');
    expect(status).toBe(200);
    expect(lines).toEqual(written.outage);
    expect(json.meta.has_older).toBe(false);
    const errors = await read('level=ERROR&component=transmit%3Acloud');
    expect(errors.lines).toEqual([written.outage.at(-1)]);
    // Without a component, the agent's own warnings of this start (if any) come after the outage's.
    const all = await read('level=WARNING&lines=1000');
    expect(all.lines.slice(0, written.outage.length)).toEqual(written.outage);
    for (const l of all.lines) expect(l).toMatch(/ \| (WARNING|ERROR) \| /);
  });

  it('level=INFO leaves out DEBUG lines and component gives one component', async () => {
    const { lines } = await read('level=INFO&component=receiver%3Aplant&until=' + encodeURIComponent(at(6009)));
    const expected = written.all.filter((l) => l.includes(' | receiver:plant | ') && !l.includes(' | DEBUG | ') && l.slice(0, 26) <= at(6009));
    expect(lines).toEqual(expected.slice(-1000));
    expect(lines.length).toBe(1000);
  });

  it('since and until give the lines of a time range across two rotated files, both bounds in ISO 8601 too', async () => {
    const from = at(2999);
    const to = at(3020);
    const expected = written.all.filter((l) => l.slice(0, 26) > from && l.slice(0, 26) <= to);
    expect(expected.length).toBe(21);
    const { lines, json } = await read(`since=${encodeURIComponent(from)}&until=${encodeURIComponent(to)}`);
    expect(lines).toEqual(expected);
    expect(json.meta.has_older).toBe(false);
    const iso = (text: string) => `${text.replace(' ', 'T')}Z`;
    expect((await read(`since=${encodeURIComponent(iso(from))}&until=${encodeURIComponent(iso(to))}`)).lines).toEqual(expected);
  });

  it('lines with until pages back: each older page continues where the one before began ("load older")', async () => {
    const first = await read(`until=${encodeURIComponent(at(4000))}&lines=400`);
    expect(first.lines).toEqual(written.all.filter((l) => l.slice(0, 26) <= at(4000)).slice(-400));
    expect(first.json.meta.has_older).toBe(true);
    // The page before: up to the oldest line shown (inclusive: lines of that very stamp are not lost).
    const older = await read(`until=${encodeURIComponent(first.lines[0]!.slice(0, 26))}&lines=400`);
    expect(older.lines.at(-1)).toBe(first.lines[0]);
    expect(older.lines.slice(0, -1)).toEqual(written.all.filter((l) => l.slice(0, 26) < first.lines[0]!.slice(0, 26)).slice(-399));
    const oldest = await read(`until=${encodeURIComponent(at(5))}&lines=400`);
    expect(oldest.lines[0]).toBe(written.all[0]);
    expect(oldest.json.meta.has_older).toBe(false);
  });

  it('refuses a level, since or until it cannot read with 400 naming the parameter', async () => {
    for (const [query, words] of [
      ['level=WARN', /level must be DEBUG, INFO, WARNING or ERROR/],
      ['level=warning', /level must be/],
      ['until=yesterday', /until must be a time/],
      ['since=soon', /since must be a time/],
    ] as const) {
      const { status, json } = await read(query);
      expect(status, query).toBe(400);
      expect(json.success).toBe(false);
      expect(json.error.text).toMatch(words);
    }
    // A component no line has is not an error: nothing matches.
    const none = await read('component=transmit%3Anone');
    expect(none.status).toBe(200);
    expect(none.lines).toEqual([]);
  });
});
