import { afterEach, describe, expect, it } from 'vitest';
import { describeSqlReceiver } from '../../../testing/sql/sql-receiver-suite.js';
import { AgentUnderTest, TestDatabase, sqlConfiguration, uniqueTable } from '../../../testing/sql/sql-test-support.js';

describeSqlReceiver('postgresql');

describe('SQL receiver on PostgreSQL: TLS and zones', () => {
  let agent: AgentUnderTest | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('refuses a self-signed server certificate with a tls_failed marker, and reads with trust_server_certificate', async () => {
    const db = await TestDatabase.open('postgresql');
    const t = uniqueTable('tls');
    try {
      await db.exec(`CREATE TABLE ${t} (id bigserial PRIMARY KEY, at timestamptz NOT NULL)`);
      await db.exec(`INSERT INTO ${t} (at) VALUES ('2026-07-01 08:00:00.250000+02')`);
    } finally {
      await db.close();
    }
    agent = await AgentUnderTest.create();
    const stream = { query: `SELECT id, at FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }], timestamp_column: 'at' };
    await agent.start(sqlConfiguration('postgresql', agent.ingest.url, [stream], { connection: { ssl: true } }));
    const marker = await agent.waitForMarker('tls_failed');
    expect(marker.message).toMatch(/TLS to PostgreSQL at 127\.0\.0\.1:55432.*self-signed.*trust_server_certificate: true/);
    const saved = await agent.server!.call('POST', '/v1/config', sqlConfiguration('postgresql', agent.ingest.url, [stream], { connection: { ssl: true, trust_server_certificate: true, timezone: 'America/Chicago' } }));
    expect(saved.json.success).toBe(true);
    const [record] = await agent.waitForRecords(1);
    // timestamptz carries its zone: the connection's timezone does not apply to it.
    expect(record!.fieldvalues.at).toBe('2026-07-01T06:00:00.250000Z');
    expect(record!.timestamp.toISOString()).toBe('2026-07-01T06:00:00.250Z');
  });
});
