/** What the source-check tests share (inspect/source-checks.test.ts and its .integration twin). */
import { beforeEach } from 'vitest';
import { serverPerTest } from './server-per-test.js';
import type { TestServer } from './test-host.js';

export interface ValidationAnswer {
  status: string;
  violations: { level: string; json_path: (string | number)[]; description: string }[];
}

/** A fresh server for each test (started before it) and POST /v1/config/validate on it. */
export function validationFixture() {
  const servers = serverPerTest();
  beforeEach(async () => {
    await servers.start();
  });
  return {
    get server(): TestServer {
      return servers.current;
    },
    async validate(config: unknown): Promise<ValidationAnswer> {
      return (await servers.current.call('POST', '/v1/config/validate', config)).json.response as ValidationAnswer;
    },
  };
}
