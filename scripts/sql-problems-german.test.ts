/**
 * A refused database connection said twice: by the preview, which tries once, and by the running
 * SQL receiver, which retries. The driver's words are the same and carry their code, so the console
 * writes both in German; only the receiver adds that Tributary keeps trying.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_MESSAGES_DE } from '../renderer/src/i18n/agent-messages/de.js';
import { agentTextFrom } from '../renderer/src/i18n/agent-text.js';
import type { AgentMessage, MessageParams } from '../shared/config/message.js';
import { SqlReceiverSchema } from '../shared/config/receivers/sql/schema.js';
import type { ComponentContext, MarkerReporter } from '../electron/agent/components/contract.js';
import { previewSql } from '../electron/agent/receivers/sql/sql-preview.js';
import { SqlReceiver } from '../electron/agent/receivers/sql/sql-receiver.js';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;
/** English words that would show a clause left untranslated. */
const ENGLISH = /\b(the|refused|connection|attempt|keeps|trying|Next|not|within|Cannot)\b/;

/** A loopback port nothing listens on (bound once, then closed again). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const receiverOn = (port: number) =>
  SqlReceiverSchema.parse({
    data_receiver_name: 'mes',
    protocol: 'sql',
    poll_interval: 1,
    connections: [{ host: '127.0.0.1', port, username: 'reader', password: 'secret', database_type: 'postgresql', database_name: 'mes', ssl: false, connect_timeout: 3, query_timeout: 5 }],
    streams: [{ asset: 'Line_1', stream_type: 'orders', query: 'SELECT id FROM orders', state_fields: [] }],
  });

describe('a refused SQL connection', () => {
  let receiver: SqlReceiver | undefined;
  afterEach(async () => {
    await receiver?.stop();
    receiver = undefined;
  });

  it('in the preview carries its code and params and reads as one German sentence', async () => {
    const port = await closedPort();
    const [preview] = await previewSql(receiverOn(port), { rows: 5, nowMicros: 0n, logger, savedState: () => undefined });
    const [problem] = preview!.problems;
    expect(problem).toMatchObject({ level: 'error', code: 'sql.connection_refused' });
    expect(problem!.message).toBe(`Cannot connect to PostgreSQL at 127.0.0.1:${port}, database "mes": connection refused. Check host and port, and that the database server runs.`);
    const text = agentTextFrom(AGENT_MESSAGES_DE, problem!.code!, problem!.params as MessageParams, problem!.message);
    expect(text).toBe(`Keine Verbindung zu PostgreSQL auf 127.0.0.1:${port}, Datenbank „mes“ möglich: Verbindung abgelehnt. Prüfen Sie Host und Port und ob der Datenbankserver läuft.`);
    expect(text).not.toMatch(ENGLISH);
  });

  it('in the running receiver’s marker still says in English that Tributary keeps trying, and in German too', async () => {
    const port = await closedPort();
    const raised: { category: string; said: AgentMessage }[] = [];
    const markers: MarkerReporter = {
      raise: (_streams, _level, category, said) => void raised.push({ category, said: typeof said === 'string' ? { code: 'plain', params: {}, text: said } : said }),
      clear: () => undefined,
    };
    const context = { logger, markers, clock: { nowMicros: () => 0n }, store: { streamState: () => undefined }, pipeline: { submit: () => undefined } } as unknown as ComponentContext;
    receiver = new SqlReceiver(receiverOn(port), context);
    await receiver.start();
    await expect.poll(() => raised.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const { category, said } = raised[0]!;
    expect(category).toBe('connect_failed');
    expect(said.code).toBe('sql.keeps_trying');
    expect((said.params.problem as AgentMessage).code).toBe('sql.connection_refused');
    expect(said.text).toBe(`Cannot connect to PostgreSQL at 127.0.0.1:${port}, database "mes": connection refused. Check host and port, and that the database server runs. Tributary keeps trying. Next attempt in 1 s.`);
    expect(said.text).toMatch(/Tributary keeps trying\. Next attempt in \d+ s\.$/);
    const text = agentTextFrom(AGENT_MESSAGES_DE, said.code, said.params, said.text);
    expect(text).toBe(`Keine Verbindung zu PostgreSQL auf 127.0.0.1:${port}, Datenbank „mes“ möglich: Verbindung abgelehnt. Prüfen Sie Host und Port und ob der Datenbankserver läuft. Tributary versucht es weiter. Nächster Versuch in 1 s.`);
    expect(text).not.toMatch(ENGLISH);
  });
});
