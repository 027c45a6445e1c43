/**
 * Issue 38: uploads no longer fill the log at INFO (~3 lines a second pushed an outage's warnings
 * out within minutes). Each upload is a DEBUG line; INFO has one summary per minute, written before
 * a warning of the transmit so that the log reads in order: what got out, then what failed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../../../ingest/ingest-server.js';
import { PRESS_HEADER, filePlant, pressRows, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';

const KEY_ID = 'factory_logs@tributary.local';
const API_KEY = 'a-key-for-log-tests';

let server: TestServer | undefined;
let ingest: IngestServer | undefined;
afterEach(async () => {
  await server?.close();
  await ingest?.close();
  server = undefined;
  ingest = undefined;
});

const transmitLines = async (query = '') => (await server!.call('GET', `/v1/log/stream?component=transmit%3Acloud&lines=1000${query}`)).json.response as string[];

describe('upload log lines', () => {
  it('logs single uploads at DEBUG and a summary at INFO, the summary before the outage warning', async () => {
    ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY } });
    const plant = filePlant();
    plant.config.data_transmit = [{ transmit_name: 'cloud', poll_interval: 1, timeout: 5 }] as never;
    Object.assign(plant.config, { sight_machine_cloud: { base_url: ingest.url, api_key: API_KEY, api_key_id: KEY_ID } });
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 3));
    await waitFor(() => ingest!.records().length >= 3, 30_000, 'the 3 records uploaded');
    await waitFor(async () => (await transmitLines()).some((l) => / \| DEBUG \| Uploaded 3 records, /.test(l)), 10_000, 'the upload logged at DEBUG');

    // The cloud goes away: the next upload fails.
    await ingest.close();
    ingest = undefined;
    plant.write('press_2.csv', PRESS_HEADER + pressRows(3, 5));
    await waitFor(async () => (await transmitLines('&level=WARNING')).length > 0, 30_000, 'the upload warning');

    const lines = await transmitLines();
    const summary = lines.findIndex((l) => / \| INFO \| 1 upload, 3 records \([\d.]+ (bytes|KiB)\) in the last \d+ s$/.test(l));
    const warning = lines.findIndex((l) => / \| WARNING \| Cannot reach /.test(l));
    expect(summary, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(warning).toBeGreaterThan(summary);
    expect(lines.filter((l) => / \| INFO \| Uploaded /.test(l))).toEqual([]);
    // At INFO, the routine upload is the one summary line; the warning stays a line of its own.
    const info = await transmitLines('&level=INFO');
    expect(info.filter((l) => /upload/i.test(l) && / \| INFO \| /.test(l))).toHaveLength(1);
  }, 90_000);
});
