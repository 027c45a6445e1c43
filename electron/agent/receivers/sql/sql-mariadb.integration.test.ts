import { afterEach, describe, expect, it } from 'vitest';
import { describeSqlReceiver } from '../../../testing/sql/sql-receiver-suite.js';
import { AgentUnderTest, sqlConfiguration } from '../../../testing/sql/sql-test-support.js';

describeSqlReceiver('mysql');

describe('SQL receiver on MariaDB: TLS', () => {
  let agent: AgentUnderTest | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('marks ssl: true against a server without TLS as tls_failed, in words', async () => {
    agent = await AgentUnderTest.create();
    await agent.start(sqlConfiguration('mysql', agent.ingest.url, [{ query: 'SELECT id FROM nowhere WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }], { connection: { ssl: true } }));
    const marker = await agent.waitForMarker('tls_failed');
    expect(marker.message).toMatch(/TLS to MySQL\/MariaDB at 127\.0\.0\.1:53306.*does not offer TLS: set ssl: false/);
  });
});
