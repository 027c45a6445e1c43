import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { SPLIT_HEADER, logLines, oneThreadRead, queuedRecords, splitProgress, splitRows } from '../../../testing/split-reading.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { createSpreadsheetParser } from '../../parsers/spreadsheet/index.js';
import { findRecordCut, stateAfterCut } from '../../parsers/spreadsheet/record-boundary.js';
import { AgentStore } from '../../store/agent-store.js';
import { FINGERPRINT_BYTES, fingerprintOf } from './file-reader.js';

const STREAM = { asset: 'Press_1', stream_type: 'cycle' };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A plant whose records stay in the outbox (its upload server is not there), so that they can be counted there. */
function holdingPlant(parse: Record<string, unknown> = {}) {
  const plant = filePlant({ parse });
  plant.config.data_transmit = [
    { transmit_name: 'held', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: 'http://127.0.0.1:9', API_key: 'k', API_key_ID: 'id', timeout: 5, poll_interval: 60 } as never,
  ];
  return plant;
}

async function readBy(plant: ReturnType<typeof holdingPlant>, file: string, splitFileBytes: number): Promise<TestServer> {
  const started = await startTestServer({ splitFileBytes });
  expect((await started.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
  await waitFor(() => {
    const progress = splitProgress(started.dataDirectory, file);
    return progress.offset === fs.statSync(file).size && progress.parts === 0;
  }, 60_000, `${path.basename(file)} read to its end`);
  return started;
}

function expectOnce(dataDirectory: string, expected: Map<string, number>): void {
  const records = queuedRecords(dataDirectory);
  const ids = records.map((record) => record.record_id);
  expect(new Set(ids).size).toBe(ids.length); // no duplicate
  expect(ids.length).toBe(expected.size);
  for (const record of records) expect(record.fieldvalues.part, record.record_id).toBe(expected.get(record.record_id!));
}

describe('one big file read by both parse threads', () => {
  it('gives every row of a file with quoted newlines, CRLF and bad lines once, with the record ids of a one-thread read, and reads its growth after the merge', async () => {
    const plant = holdingPlant();
    const file = path.join(plant.drop, 'press_big.csv');
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(0, 12_000));
    server = await readBy(plant, file, 64 * 1024);
    expect(logLines(server.dataDirectory, 'read by two parse threads')).toHaveLength(1);
    expect(logLines(server.dataDirectory, 'both parts read, merged')).toHaveLength(1);
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
    // Grown after the merge: the tail is read on from the merged progress (small: by one thread).
    fs.appendFileSync(file, splitRows(12_000, 12_100));
    await waitFor(() => splitProgress(server!.dataDirectory, file).offset === fs.statSync(file).size, 20_000, 'the grown tail read');
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
  }, 120_000);

  it('reads a file with a counter column on one thread (the counter of the second part would depend on the first part\'s bad lines)', async () => {
    const plant = holdingPlant();
    (plant.config.data_receiver[0]!.parsers[0]!.options as Record<string, unknown>).counter = true;
    const file = path.join(plant.drop, 'press_counted.csv');
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(0, 4000));
    server = await readBy(plant, file, 64 * 1024);
    expect(logLines(server.dataDirectory, 'read by two parse threads')).toEqual([]);
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
  }, 120_000);
});

/**
 * The state a kill leaves right after the split was committed: the file's row at the end of its
 * first chunk and two parts at their starts (what splitFile writes), stored before the agent starts.
 */
async function storeSplit(dataDirectory: string, file: string, parserConfig: unknown): Promise<{ from: number; cut: number }> {
  const bytes = fs.readFileSync(file);
  const config = SpreadsheetParserSchema.parse(parserConfig);
  const parser = createSpreadsheetParser(config);
  const first = parser.parseChunk(bytes.subarray(0, 128 * 1024), parser.initialState(), false);
  const cut = await findRecordCut({ config, state: first.state, read: async (into, at) => bytes.copy(into, 0, at, at + into.length), from: first.consumedBytes, target: Math.floor(bytes.length / 2), end: bytes.length, maxRecordBytes: 1 << 20 });
  const store = new AgentStore(path.join(dataDirectory, 'state', 'agent.db'));
  try {
    const parserState = JSON.stringify(first.state);
    const progress = { path: file, size: bytes.length, mtimeMs: fs.statSync(file).mtimeMs, offset: first.consumedBytes, fingerprint: fingerprintOf(bytes.subarray(0, FINGERPRINT_BYTES)), parserState };
    store.commit('plant', STREAM, [], { file: progress });
    expect(
      store.splitFile('plant', STREAM, progress, first.consumedBytes, [
        { start: first.consumedBytes, end: cut!.offset, offset: first.consumedBytes, parserState },
        { start: cut!.offset, end: bytes.length, offset: cut!.offset, parserState: JSON.stringify(stateAfterCut(first.state, cut!)) },
      ]),
    ).toBe(true);
  } finally {
    store.close();
  }
  return { from: first.consumedBytes, cut: cut!.offset };
}

describe('a split file found at start', () => {
  it('renamed meanwhile: continues with its parts under the new name and merges them', async () => {
    const plant = holdingPlant();
    const old = path.join(plant.drop, 'press_rotating.csv');
    fs.writeFileSync(old, SPLIT_HEADER + splitRows(0, 12_000));
    const dataDirectory = tempDirectory();
    const { from } = await storeSplit(dataDirectory, old, plant.config.data_receiver[0]!.parsers[0]);
    const renamed = path.join(plant.drop, 'press_rotated.csv');
    fs.renameSync(old, renamed);
    server = await startTestServer({ dataDirectory, splitFileBytes: 64 * 1024 });
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    await waitFor(() => {
      const progress = splitProgress(dataDirectory, renamed);
      return progress.offset === fs.statSync(renamed).size && progress.parts === 0;
    }, 60_000, 'the renamed file read to its end');
    expect(splitProgress(dataDirectory, old)).toEqual({ offset: undefined, parts: 0 });
    // Exactly the rows after the first chunk (that one was committed before the rename), each once.
    const all = oneThreadRead(renamed, STREAM, plant.config.data_receiver[0]!.parsers[0]);
    const head = createSpreadsheetParser(SpreadsheetParserSchema.parse(plant.config.data_receiver[0]!.parsers[0])).parseChunk(fs.readFileSync(renamed).subarray(0, from), { header: null, rowsSeen: 0, linesSeen: 0, counter: 0, encoding: null }, false).rows.length;
    expectOnce(dataDirectory, new Map([...all].slice(head)));
  }, 120_000);

  it('rewritten meanwhile: drops the parts with its progress and reads the new file from the start', async () => {
    const plant = holdingPlant();
    const file = path.join(plant.drop, 'press_rewritten.csv');
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(0, 12_000));
    const dataDirectory = tempDirectory();
    await storeSplit(dataDirectory, file, plant.config.data_receiver[0]!.parsers[0]);
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(50_000, 51_000)); // other first bytes, shorter than the parts
    server = await startTestServer({ dataDirectory, splitFileBytes: 64 * 1024 });
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    await waitFor(() => {
      const progress = splitProgress(dataDirectory, file);
      return progress.offset === fs.statSync(file).size && progress.parts === 0;
    }, 60_000, 'the rewritten file read to its end');
    expectOnce(dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
  }, 120_000);
});
