/**
 * A json value nested 6,000 deep used to stop its SQL stream for good at that row (issue 39): the
 * driver's parsed value overflowed the stack when it became text, every poll failed on the same row,
 * and the marker named neither row nor column. Now the value is stored as null, a marker names the
 * row and the column, and the rows after it are read (real PostgreSQL and MariaDB of scripts/ci).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentUnderTest, DDL, TestDatabase, type TestDialect, sqlConfiguration, uniqueTable } from '../testing/sql/sql-test-support.js';

const deep = (levels: number) => `{"a":${'['.repeat(levels)}1${']'.repeat(levels)}}`;

let agent: AgentUnderTest | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

async function statusAnswersWithinASecond(): Promise<void> {
  const { url, token } = agent!.server!;
  const reply = await fetch(`${url}/v1/status`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(1000) });
  expect(reply.status).toBe(200);
}

describe('SQL json values beyond the bounds', () => {
  it('PostgreSQL json and jsonb nested 6,000 deep: null with a marker naming row and column, the stream reads on', async () => {
    const db = await TestDatabase.open('postgresql');
    const t = uniqueTable('hostile_json');
    try {
      await db.exec(`CREATE TABLE ${t} (id bigserial PRIMARY KEY, doc json, docb jsonb)`);
      await db.exec(`INSERT INTO ${t} (doc, docb) VALUES (?, ?), (?, ?), (?, ?), (?, ?)`, ['{"v": 1}', '{"v": 1}', deep(6000), '{"v": 2}', '{"v": 3}', deep(6000), '[1, [2, [3]]]', '{"v": 4}']);
    } finally {
      await db.close();
    }
    agent = await AgentUnderTest.create();
    const stream = { query: `SELECT id, doc, docb FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] };
    await agent.start(sqlConfiguration('postgresql', agent.ingest.url, [stream]));
    const records = await agent.waitForRecords(4);
    const rows = records.map((r) => [r.fieldvalues.id, r.fieldvalues.doc, r.fieldvalues.docb] as const).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(rows).toEqual([
      [1, '{"v":1}', '{"v":1}'],
      [2, null, '{"v":2}'],
      [3, '{"v":3}', null],
      [4, '[1,[2,[3]]]', '{"v":4}'],
    ]);
    const marker = await agent.waitForMarker('value_unreadable');
    expect(marker).toMatchObject({ level: 'warning', asset: 'Line_1', stream_type: 'orders' });
    expect(marker.message).toMatch(/^2 values could not be kept and were stored as null \(the rows were read\): the row with id = 2, column "doc": a JSON value nested deeper than 100 levels\.$/);
    await statusAnswersWithinASecond();
    const markers = await agent.markers();
    expect(markers.filter((m) => m.category === 'query_failed')).toEqual([]);
  });

  it.each<TestDialect>(['postgresql', 'mysql'])('%s: a deep JSON text in a text column stays text and the rows after it are read', async (dialect) => {
    const db = await TestDatabase.open(dialect);
    const t = uniqueTable('deep_text');
    try {
      await db.exec(`CREATE TABLE ${t} (id ${DDL[dialect].id}, doc ${DDL[dialect].text})`);
      await db.insert(t, [{ doc: deep(6000) }, { doc: 'after' }]);
    } finally {
      await db.close();
    }
    agent = await AgentUnderTest.create();
    await agent.start(sqlConfiguration(dialect, agent.ingest.url, [{ query: `SELECT id, doc FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]));
    const records = await agent.waitForRecords(2);
    expect(records.sort((a, b) => Number(a.fieldvalues.id) - Number(b.fieldvalues.id)).map((r) => r.fieldvalues.doc)).toEqual([deep(6000), 'after']);
    await statusAnswersWithinASecond();
  });
});
