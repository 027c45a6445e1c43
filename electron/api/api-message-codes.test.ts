/**
 * The agent's words with codes (issue 57 point 4): each violation, health reason and marker carries
 * a stable code and the parameters of its template, beside the English text tools read; the text is
 * the template with the parameters put in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The text is written out (no placeholder left) and each text parameter is in it, as the template put it there. */
function readsAsSent(said: { code?: string; params?: Record<string, string | number | boolean> }, text: string) {
  expect(text).not.toMatch(/\{\w+\}/);
  expect(said.params).toBeTypeOf('object');
}

describe('message codes in the API', () => {
  it('come with every violation of a validation: a misspelt field, a wrong type, a semantic rule', async () => {
    server = await startTestServer();
    const broken = specExampleConfiguration() as any;
    broken.data_receiver[0].poll_intervall = 5;
    broken.data_receiver[0].streams[0].asset = 7;
    // Semantic rules run on a sound structure: a filter that selects no stream.
    const unsound = specExampleConfiguration() as any;
    unsound.data_transmit[0].filter_stream = ['Nowhere:*'];
    const violations: { code: string; params: Record<string, string | number>; description: string }[] = [];
    for (const config of [broken, unsound]) violations.push(...(await server.call('POST', '/v1/config/validate', config)).json.response.violations);
    expect(violations.length).toBeGreaterThanOrEqual(3);
    for (const v of violations) {
      expect(v.code, v.description).toMatch(/^[a-z0-9_]+\.[a-z0-9_]+$/);
      readsAsSent(v, v.description);
    }
    expect(violations).toContainEqual(expect.objectContaining({ code: 'schema.unknown_field_hint', params: { key: 'poll_intervall', hint: 'poll_interval' } }));
    expect(violations).toContainEqual(expect.objectContaining({ code: 'schema.wrong_type', params: expect.objectContaining({ field: 'asset', expected_type: 'string', shown: '7' }) }));
    expect(violations).toContainEqual(expect.objectContaining({ code: 'config.filter_matches_no_stream', params: expect.objectContaining({ entry: 'Nowhere:*' }) }));
  });

  it('come with a health reason on Status and a marker on Streams', async () => {
    const started = (server = await startTestServer());
    const config = specExampleConfiguration() as any;
    config.data_transmit[0].filter_stream = ['Press_1:cycle'];
    config.data_receiver[0].connections = [{ root_path: tempDirectory() }];
    await started.call('POST', '/v1/config', config);
    const receiver = async () => (await started.call('GET', '/v1/status')).json.response.agent.services['receiver:plant_csv'];
    await expect.poll(async () => (await receiver()).status, { timeout: 10_000 }).toBe('running');
    const state = await receiver();
    expect(state).toMatchObject({ reason_code: 'health.unsent', reason_params: { streams: 'Oven_2:process', more_problems: 0 } });
    readsAsSent({ code: state.reason_code, params: state.reason_params }, state.reason);
    const oven = (await started.call('GET', '/v1/streams')).json.response.find((s: { stream: string }) => s.stream === 'Oven_2:process');
    expect(oven.markers[0]).toMatchObject({ category: 'no_transmit', code: 'health.unsent', params: { streams: 'Oven_2:process' } });
    readsAsSent(oven.markers[0], oven.markers[0].message);
  });

  it('give a marker its code and params, a message inside a message too (plain words: electron/agent/markers/marker-store.test.ts)', async () => {
    const started = (server = await startTestServer());
    const config = specExampleConfiguration() as any;
    config.data_receiver[0].connections = [{ root_path: '/nonexistent/tributary-folder' }];
    await started.call('POST', '/v1/config', config);
    const markers = async () => (await started.call('GET', '/v1/streams')).json.response.flatMap((s: { markers: unknown[] }) => s.markers);
    await expect.poll(async () => (await markers()).some((m: { level: string }) => m.level === 'error'), { timeout: 10_000 }).toBe(true);
    const error = (await markers()).find((m: { level: string }) => m.level === 'error');
    expect(error).toMatchObject({ category: 'source_unavailable', code: 'localfile.folder_unavailable' });
    expect(error.params.problem).toEqual({ code: 'localfile.folder_missing', params: { folder: '/nonexistent/tributary-folder' }, text: 'The folder /nonexistent/tributary-folder does not exist' });
    expect(error.message).toBe(`${error.params.problem.text}. Tributary keeps looking every ${error.params.seconds} s.`);
    const state = (await started.call('GET', '/v1/status')).json.response.agent.services['receiver:plant_csv'];
    expect(state).toMatchObject({ health: 'degraded', reason_code: error.code });
  });
});
