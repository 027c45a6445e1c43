/**
 * kill -9 at random points while big files are read by both parse threads (cut, parts committed
 * chunk by chunk, merged): after a restart every row is in the outbox exactly once, with the record
 * ids of a one-thread read. The records stay in the outbox (their upload server is not there), so
 * the outbox itself is counted, not a destination that may get a batch twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { SPLIT_HEADER, logLines, oneThreadRead, queuedRecords, splitProgress, splitRows } from '../testing/split-reading.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';

const HOST_MODULE = new URL('../../dist/electron/host/host.js', import.meta.url).href;
const TOKEN = 'split-crash-token-0123456789';
const STREAM = { asset: 'Press_1', stream_type: 'cycle' };

/** The built agent with a low split threshold (an option of the composition root), in a child process that can be killed. */
const SCRIPT = `
import { createHost } from ${JSON.stringify(HOST_MODULE)};
const host = await createHost({ dataDirectory: process.env.SPLIT_DATA_DIR, splitFileBytes: 64 * 1024, stopTimeoutMs: 2000, machineInfoIntervalMs: 60000, http: { host: '127.0.0.1', port: 0 } });
process.stdout.write('Tributary console: http://127.0.0.1:' + host.http.port + '/?token=' + process.env.TRIBUTARY_API_TOKEN + '\\n');
`;

let agent: ServeProcess | undefined;

function start(dataDirectory: string): Promise<ServeProcess> {
  // A file, not --input-type/-e: worker threads inherit the process's flags, and --input-type breaks them.
  const script = path.join(dataDirectory, '..', `${path.basename(dataDirectory)}-agent.mjs`);
  fs.writeFileSync(script, SCRIPT);
  return serveProcess([], { SPLIT_DATA_DIR: dataDirectory, TRIBUTARY_API_TOKEN: TOKEN }, script);
}

afterEach(async () => {
  await agent?.crash();
  agent = undefined;
});

describe('kill -9 while one file is read by both parse threads', () => {
  it('every row lands in the outbox exactly once, with the record ids of a one-thread read', async () => {
    const plant = filePlant();
    plant.config.data_transmit = [
      { transmit_name: 'held', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: 'http://127.0.0.1:9', API_key: 'k', API_key_ID: 'id', timeout: 5, poll_interval: 60 } as never,
    ];
    const dataDirectory = tempDirectory();
    const files: string[] = [];
    let killedWhileSplit = 0;
    // Files seen split: in the store (parts) or in the log. Either alone can miss one: the log line
    // follows the split's commit, so a kill between the two loses it; parts merged between two
    // looks are never seen in the store.
    const seenSplit = new Set<string>();
    const lookForParts = (): void => {
      for (const file of files) if (splitProgress(dataDirectory, file).parts > 0) seenSplit.add(file);
    };
    const rounds = 8;
    for (let round = 0; round < rounds; round += 1) {
      agent = await start(dataDirectory);
      if (round === 0) {
        const saved = await fetch(`http://127.0.0.1:${agent.port}/v1/config`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(plant.config) });
        expect(((await saved.json()) as { success: boolean }).success).toBe(true);
      }
      // A new big file every other round; the others resume what the kill interrupted.
      if (round % 2 === 0) {
        const file = path.join(plant.drop, `press_${round}.csv`);
        fs.writeFileSync(file, SPLIT_HEADER + splitRows(round * 100_000, round * 100_000 + 60_000));
        files.push(file);
      }
      if (round % 2 === 0) {
        // Killed while the new file is read in parts, a random moment after its split was committed
        // (on a fast machine a fixed delay could miss the parts altogether; both threads read the
        // file's 60,000 rows in well under a second, so the moment is drawn from the first 300 ms)…
        await waitFor(() => {
          const progress = splitProgress(dataDirectory, files.at(-1)!);
          lookForParts();
          return progress.parts > 0 || progress.offset === fs.statSync(files.at(-1)!).size;
        }, 60_000, 'the new file split (or already read)');
        await new Promise((r) => setTimeout(r, Math.random() * 300));
      } else {
        // …or at any moment of a restart: before a split, between part commits, during a merge.
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 2500));
      }
      lookForParts();
      await agent.crash();
      agent = undefined;
      if (files.some((file) => splitProgress(dataDirectory, file).parts > 0)) killedWhileSplit += 1;
      lookForParts();
    }
    agent = await start(dataDirectory);
    await waitFor(
      () => files.every((file) => {
        const progress = splitProgress(dataDirectory, file);
        return progress.offset === fs.statSync(file).size && progress.parts === 0;
      }),
      120_000,
      'every file read to its end and its parts merged',
    );
    await agent.crash();
    agent = undefined;
    // The kills did hit files while they were split (else this test showed nothing about parts).
    expect(killedWhileSplit).toBeGreaterThan(0);
    // Every file was read in two parts at least once (else a one-thread read would pass this test).
    for (const file of files) if (logLines(dataDirectory, `${file}: read by two parse threads`).length > 0) seenSplit.add(file);
    expect([...seenSplit].sort()).toEqual([...files].sort());
    const expected = new Map<string, number>();
    for (const file of files) for (const [id, part] of oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0])) expected.set(id, part);
    const records = queuedRecords(dataDirectory);
    const ids = records.map((record) => record.record_id!);
    expect(ids.length - new Set(ids).size, 'duplicated rows').toBe(0);
    expect(ids.length).toBe(expected.size);
    expect(new Set(ids)).toEqual(new Set(expected.keys()));
    for (const record of records) expect(record.fieldvalues.part).toBe(expected.get(record.record_id!));
  }, 240_000);
});
