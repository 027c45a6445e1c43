import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { waitFor } from '../../../testing/file-plant.js';
import { tempDirectory } from '../../../testing/test-host.js';
import { builtInComponents } from '../../catalog/built-in.js';
import type { ComponentContext, OutboxCodec } from '../../components/contract.js';
import { RECORDS_JSON } from '../../components/records-json-codec.js';
import { LogFile } from '../../logging/log-file.js';
import { Logger, Redactor } from '../../logging/logger.js';
import { MarkerStore } from '../../markers/marker-store.js';
import { AgentStore } from '../../store/agent-store.js';
import { SystemClock } from '../../time/clock.js';
import { CSV_COLUMNS_OUTBOX, CSV_OUTBOX } from './csv-outbox.js';
import { CsvTransmit } from './csv-transmit.js';

// The csv transmit writing what waits in a real store's outbox, in this build's format and in
// those older builds left there (an agent updated with a backlog).
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
});

const PRESS = { asset: 'Press_1', stream_type: 'process' };
const at = (second: number, fieldvalues: AgentRecord['fieldvalues'], id = `r${second}`): AgentRecord => ({
  ...PRESS,
  timestamp: `2026-01-05T06:00:${String(second).padStart(2, '0')}.000000Z`,
  capturetime: '2026-01-05T06:01:00.000000Z',
  fieldvalues,
  record_id: id,
});

async function transmitWith(batches: { codec: OutboxCodec<Record<string, never>>; records: AgentRecord[] }[]) {
  const directory = tempDirectory();
  const store = new AgentStore(path.join(directory, 'agent.db'));
  cleanup.push(() => store.close());
  for (const { codec, records } of batches) {
    const [batch] = codec.encode(records, {});
    store.commit('plc', PRESS, [{ transmit: 'archive', ...PRESS, format: codec.format, records: batch!.records, payload: batch!.payload }], {});
  }
  const clock = new SystemClock();
  const logger = new Logger(new LogFile(path.join(directory, 'agent_core.log'), { maxBytes: 1e6, keep: 1 }), new Redactor(), clock, 'archive');
  const registry = builtInComponents();
  const delivered: number[] = [];
  const context = {
    logger,
    markers: new MarkerStore(clock).reporter('archive', 'Transmit'),
    clock,
    dataDirectory: directory,
    streams: [PRESS],
    agentDataDirectory: directory,
    pipeline: { onQueued: () => () => undefined },
    store,
    stats: { success: (_: string, records: number) => delivered.push(records), failure: () => undefined },
    decodeBatch: (format: string, payload: Buffer) => registry.decode(format, payload),
  } as unknown as ComponentContext;
  const transmit = new CsvTransmit({ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: 'outbox', poll_interval: 1, max_file_bytes: 1e9 } as never, context);
  await transmit.start();
  cleanup.push(() => transmit.stop());
  const expected = batches.reduce((n, b) => n + b.records.length, 0);
  await waitFor(() => delivered.reduce((a, b) => a + b, 0) >= expected);
  expect(store.backlog('archive').batches).toBe(0);
  const outbox = path.join(directory, 'outbox');
  return Object.fromEntries(fs.readdirSync(outbox).map((name) => [name, fs.readFileSync(path.join(outbox, name), 'utf8')]));
}

describe('the csv transmit', () => {
  it("writes a machine's rows as they were stored, also a column of mixed values, and a stream's new columns to a new file", async () => {
    const files = await transmitWith([
      { codec: CSV_OUTBOX, records: [at(1, { t: 20.5, t_status: 'Good' }), at(2, { t: -0.25, t_status: 'Bad, "sensor"' }), at(3, { t: null, t_status: 'Uncertain' })] },
      // A column holding a number and a string, and an empty string: stored as JSON rows, written alike.
      { codec: CSV_OUTBOX, records: [at(4, { t: 7, t_status: 'Good' }), at(5, { t: 'n/a', t_status: '' })] },
      // The same columns in another order go to the same file, in its order; a new column opens a file.
      { codec: CSV_OUTBOX, records: [at(6, { t_status: 'Good', t: 8 }), at(7, { t: 9, t_status: 'Good', p: true })] },
    ]);
    expect(files).toEqual({
      'Press_1__process.csv': [
        'timestamp,capturetime,record_id,t,t_status',
        '2026-01-05T06:00:01.000000Z,2026-01-05T06:01:00.000000Z,r1,20.5,Good',
        '2026-01-05T06:00:02.000000Z,2026-01-05T06:01:00.000000Z,r2,-0.25,"Bad, ""sensor"""',
        '2026-01-05T06:00:03.000000Z,2026-01-05T06:01:00.000000Z,r3,,Uncertain',
        '2026-01-05T06:00:04.000000Z,2026-01-05T06:01:00.000000Z,r4,7,Good',
        '2026-01-05T06:00:05.000000Z,2026-01-05T06:01:00.000000Z,r5,n/a,',
        '2026-01-05T06:00:06.000000Z,2026-01-05T06:01:00.000000Z,r6,8,Good',
        '',
      ].join('\n'),
      'Press_1__process.1.csv': ['timestamp,capturetime,record_id,t,t_status,p', '2026-01-05T06:00:07.000000Z,2026-01-05T06:01:00.000000Z,r7,9,Good,true', ''].join('\n'),
    });
  });

  it('writes the batches older builds left in the outbox (records as JSON, rows by column) as this build writes its own', async () => {
    const records = [at(1, { t: 1.5, t_status: 'Good' }), at(2, { t: 2, t_status: 'Bad, "open"' })];
    const now = await transmitWith([{ codec: CSV_OUTBOX, records }]);
    expect(await transmitWith([{ codec: CSV_COLUMNS_OUTBOX, records }])).toEqual(now);
    expect(await transmitWith([{ codec: RECORDS_JSON, records }])).toEqual(now);
  });
});
