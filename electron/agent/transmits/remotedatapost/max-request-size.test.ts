import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../../../ingest/ingest-server.js';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';

const KEY_ID = 'factory_size@tributary.local';
const API_KEY = 'a-key-for-size-tests';

let server: TestServer | undefined;
let ingest: IngestServer | undefined;
afterEach(async () => {
  await server?.close();
  await ingest?.close();
  server = undefined;
  ingest = undefined;
});

describe('max_request_size_bytes', () => {
  it('splits uploads so that no request body is bigger, and delivers every record', async () => {
    ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY } });
    const plant = filePlant();
    // The product family's form: credentials from sight_machine_cloud, transmit_type by default.
    plant.config.data_transmit = [{ transmit_name: 'cloud', max_request_records: 3000, max_request_size_bytes: 4096, poll_interval: 1, timeout: 5 }] as never;
    Object.assign(plant.config, { sight_machine_cloud: { base_url: ingest.url, api_key: API_KEY, api_key_id: KEY_ID } });
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    // Rows whose text does not compress away: 600 of them are far more than 4 KiB in one upload.
    const rows = Array.from({ length: 600 }, (_, i) => `2026-01-05 06:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${i},${Math.sin(i).toFixed(12)}\n`).join('');
    plant.write('press_1.csv', `time,part,force\n${rows}`);
    await waitFor(() => new Set(ingest!.records().map((r) => (r.fieldvalues as { part: number }).part)).size === 600, 30_000, 'all 600 records');
    expect(ingest.uploads.length).toBeGreaterThan(1);
    // The multipart part is the encrypted body; the whole request stays within the limit.
    for (const upload of ingest.uploads) expect(upload.bytes).toBeLessThanOrEqual(4096);
  });
});
