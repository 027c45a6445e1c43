import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await server.close();
});

async function consoleServer() {
  const consoleDirectory = tempDirectory('tributary-console-');
  fs.mkdirSync(path.join(consoleDirectory, 'assets'));
  fs.writeFileSync(path.join(consoleDirectory, 'index.html'), '<!doctype html><title>Tributary</title>');
  fs.writeFileSync(path.join(consoleDirectory, 'assets', 'index-abc.js'), 'console.log(1);');
  const server = await startTestServer({ http: { host: '127.0.0.1', port: 0, consoleDirectory } });
  servers.push(server);
  return { server, consoleDirectory };
}

describe('the console files', () => {
  it('serves the built console and its hashed assets, cached by content', async () => {
    const { server } = await consoleServer();
    const asset = await fetch(`${server.url}/assets/index-abc.js`);
    expect(await asset.text()).toBe('console.log(1);');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // A client-side route gets index.html.
    expect(await (await fetch(`${server.url}/streams`)).text()).toContain('<title>Tributary</title>');
  });

  it('a file that goes while it is being answered (a rebuild) cuts that answer short; the agent serves on', async () => {
    const { server, consoleDirectory } = await consoleServer();
    const file = path.join(consoleDirectory, 'assets', 'index-abc.js');
    // Gone between the server's look at it and its read, as when `npm run build` empties the folder.
    const open = fs.createReadStream;
    vi.spyOn(fs, 'createReadStream').mockImplementationOnce(((target: fs.PathLike, options?: unknown) => {
      fs.rmSync(file);
      return open(target, options as never);
    }) as typeof fs.createReadStream);
    await expect(fetch(`${server.url}/assets/index-abc.js`).then((r) => r.text())).rejects.toThrow();
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>Tributary</title>');
  });
});
