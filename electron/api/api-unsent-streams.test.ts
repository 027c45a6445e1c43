/**
 * A stream no transmit takes (issue 56 point 1): Validate warns at its receiver, Status gives the
 * running receiver a reason, Streams a warning, from the start and not only once records were read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The spec example with its transmit taking Press_1 only: Oven_2:process goes nowhere. */
function withOvenUnsent(folder?: string) {
  const config = specExampleConfiguration() as any;
  config.data_transmit[0].filter_stream = ['Press_1:cycle'];
  // A folder that exists: the receiver's own problem would otherwise come first.
  if (folder) config.data_receiver[0].connections = [{ root_path: folder }];
  return config;
}

describe('a stream no transmit takes', () => {
  it('is a validation warning naming the stream, and the configuration still saves', async () => {
    server = await startTestServer();
    const { json } = await server.call('POST', '/v1/config/validate', withOvenUnsent());
    const found = json.response.violations.filter((v: { description: string }) => v.description.includes('Oven_2:process'));
    expect(found).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0], description: expect.stringMatching(/No transmit sends the stream "Oven_2:process"/) })]);
    expect((await server.call('POST', '/v1/config', withOvenUnsent())).json.success).toBe(true);
  });

  it('gives its running receiver a reason on Status and the stream a warning on Streams, gone once a transmit takes it', async () => {
    const started = (server = await startTestServer());
    const folder = tempDirectory();
    await started.call('POST', '/v1/config', withOvenUnsent(folder));
    const receiver = async () => (await started.call('GET', '/v1/status')).json.response.agent.services['receiver:plant_csv'];
    await expect.poll(async () => (await receiver()).status, { timeout: 10_000 }).toBe('running');
    expect(await receiver()).toMatchObject({ health: 'degraded', reason: expect.stringMatching(/^No transmit sends Oven_2:process: its records are read and marked read but never leave/) });
    const streams = (await started.call('GET', '/v1/streams')).json.response;
    const oven = streams.find((s: { stream: string }) => s.stream === 'Oven_2:process');
    expect(oven.markers).toEqual([expect.objectContaining({ level: 'warning', category: 'no_transmit', message: expect.stringMatching(/No transmit sends Oven_2:process/) })]);
    const press = streams.find((s: { stream: string }) => s.stream === 'Press_1:cycle');
    expect(press.markers).toEqual([]);

    // Stopped, the receiver is not judged: nothing is read then.
    await started.call('POST', '/v1/agent/stop');
    expect(await receiver()).toMatchObject({ health: 'ok', reason: null });
    await started.call('POST', '/v1/agent/start');

    const all = specExampleConfiguration();
    all.data_receiver[0]!.connections = [{ root_path: folder }];
    await started.call('POST', '/v1/config', all);
    await expect.poll(async () => (await receiver()).health, { timeout: 10_000 }).toBe('ok');
    const after = (await started.call('GET', '/v1/streams')).json.response.find((s: { stream: string }) => s.stream === 'Oven_2:process');
    expect(after.markers).toEqual([]);
  });
});
