/**
 * Counters of each transmit survive a restart as records do (issue 56 point 6): bytes sent and
 * upload errors dropped to what the new process counted (326 KiB → 5.46 KiB) while records carried over.
 */
import { describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { FLOW_HEADER, flowRows, streamFlowFixture } from '../testing/stream-flow-fixture.js';
import { type TestServer, tempDirectory } from '../testing/test-host.js';

const { servers, startPlant } = streamFlowFixture();
const transmits = async (server: TestServer) => (await server.call('GET', '/v1/status')).json.response.last_data_transmit;

describe('transmit counters across a restart', () => {
  it('keeps records_sent, bytes_sent and upload_errors, and counts on from them', async () => {
    const plant = filePlant();
    const down = { transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['Press_1:cycle'], base_url: 'http://127.0.0.1:1', API_key: 'k', API_key_ID: 'id', timeout: 2, poll_interval: 1 };
    plant.config.data_transmit.push(down as never);
    const dataDirectory = tempDirectory();
    let started = await startPlant(plant, dataDirectory);
    plant.write('press_1.csv', FLOW_HEADER + flowRows(0, 300));
    await waitFor(async () => (await transmits(started)).archive.records_sent === 300, 15_000, 'archive sent 300');
    await waitFor(async () => (await transmits(started)).cloud.upload_errors >= 1, 15_000, 'the cloud upload failed');
    const before = await transmits(started);
    expect(before.archive.bytes_sent).toBeGreaterThan(0);

    started = await servers.start({ dataDirectory });
    const after = await transmits(started);
    expect(after.archive).toMatchObject({ records_sent: 300, bytes_sent: before.archive.bytes_sent });
    // The cloud may have failed again between the look and the restart: never fewer.
    expect(after.cloud.upload_errors).toBeGreaterThanOrEqual(before.cloud.upload_errors);
    expect(after.cloud.records_sent).toBe(0);

    // New deliveries add to what was kept.
    plant.write('press_2.csv', FLOW_HEADER + flowRows(300, 400));
    await waitFor(async () => (await transmits(started)).archive.records_sent === 400, 15_000, 'archive sent 400');
    expect((await transmits(started)).archive.bytes_sent).toBeGreaterThan(before.archive.bytes_sent);
  });
});
