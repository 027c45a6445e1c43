import { afterEach } from 'vitest';
import type { HostOptions } from '../host/host.js';
import { type TestServer, startTestServer } from './test-host.js';

/**
 * The server of the running test, closed after each test (register it at the top of a test file).
 * `start()` starts one (closing the test's previous one first: a restart over the same data
 * directory), `startWith()` through a starter of its own; `get()` starts one on first use;
 * `current` is the one started, for tests that started it before.
 */
export function serverPerTest() {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    async startWith(starter: () => Promise<TestServer>): Promise<TestServer> {
      await server?.close();
      server = undefined;
      server = await starter();
      return server;
    },
    start(options: Partial<HostOptions> = {}): Promise<TestServer> {
      return this.startWith(() => startTestServer(options));
    },
    async get(): Promise<TestServer> {
      return server ?? this.start();
    },
    get current(): TestServer {
      if (!server) throw new Error('no test server was started in this test');
      return server;
    },
  };
}
