/**
 * Issue 50 point 7a: a viewer's validate told whether any file exists (`ca_file: /etc/shadow` → no
 * violation, a missing file → ENOENT). A non-admin's validation now looks at nothing on this PC:
 * the answer for a file or folder that exists, one that does not and one the agent may not read
 * is the same. An admin still gets the detail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ['viewer', 'operator'] as const) {
    const created = await server.call('POST', '/v1/tokens', { name: `probe-${role}`, role });
    expect(created.status).toBe(200);
    tokens[role] = created.json.response.token as string;
  }
});
afterAll(async () => {
  await server.close();
});

const withCaFile = (caFile: string) => ({
  data_receiver: [
    {
      data_receiver_name: 'machines',
      protocol: 'mqtt',
      connections: [{ host: '127.0.0.1', port: 1, tls: true, ca_file: caFile }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: 'plant/#' }],
    },
  ],
  transforms: [],
  data_transmit: [{ transmit_name: 'out', transmit_type: 'csv', filter_stream: ['*'], directory: path.join(tempDirectory('tributary-validate-'), 'out') }],
});

const withFolder = (folder: string) => {
  const config = specExampleConfiguration();
  config.data_receiver[0]!.connections[0]!.root_path = folder;
  return config;
};

/** The answer with the probed path replaced, so that two answers about two paths compare. */
async function validate(role: string | undefined, body: unknown, probed: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = role === undefined ? {} : { authorization: `Bearer ${tokens[role]}` };
  const { status, json } = await server.call('POST', '/v1/config/validate', body, headers);
  return { status, text: JSON.stringify(json).split(probed).join('<probed>') };
}

describe('validate cannot be used to probe the files of this PC', () => {
  const dir = tempDirectory('tributary-probe-');
  const existing = path.join(dir, 'ca.pem');
  fs.writeFileSync(existing, '-----BEGIN CERTIFICATE-----\n');
  const unreadable = path.join(dir, 'locked.pem');
  fs.writeFileSync(unreadable, 'secret');
  fs.chmodSync(unreadable, 0o000);
  const files = ['/etc/shadow', unreadable, existing, path.join(dir, 'no-such-file.pem'), dir];
  const locked = path.join(dir, 'locked-folder');
  fs.mkdirSync(locked, { mode: 0o000 });
  const folders = [locked, dir, path.join(dir, 'no-such-folder'), existing];

  for (const role of ['viewer', 'operator']) {
    it(`${role}: ca_file /etc/shadow, an unreadable, an existing and a missing file, a folder: one answer`, async () => {
      const answers = await Promise.all(files.map((file) => validate(role, withCaFile(file), file)));
      expect(answers[0]!.status).toBe(200);
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
      expect(answers[0]!.text).not.toMatch(/ENOENT|EACCES|not a file|cannot be read/);
    });

    it(`${role}: a file receiver's folder that exists, is missing, is not a folder or is locked: one answer`, async () => {
      const answers = await Promise.all(folders.map((folder) => validate(role, withFolder(folder), folder)));
      for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    });
  }

  it('admin: gets the detail (a missing ca_file is an error naming why)', async () => {
    const missing = await validate(undefined, withCaFile(path.join(dir, 'no-such-file.pem')), 'x');
    expect(missing.text).toContain('ENOENT');
    const present = await validate(undefined, withCaFile(existing), 'x');
    expect(present.text).not.toContain('ca_file');
  });
});
