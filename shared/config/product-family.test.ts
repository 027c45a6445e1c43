import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../testing/config-fixtures.js';
import { tagNodeId } from './receivers/opcua/rules.js';
import { SECRET_MASK } from './schema.js';
import { collectSecrets, maskSecrets, unmaskSecrets } from './secrets.js';
import { validateConfiguration } from './validate.js';
import type { JsonPath, Violation } from './violations.js';

const CLOUD = { base_url: 'https://cloudyday.sightmachine.io', api_key: 'cloud-key', api_key_id: 'factory_1@sightmachine_ftx.com' };
const at = (violations: Violation[], path: JsonPath) => violations.filter((v) => JSON.stringify(v.json_path) === JSON.stringify(path));

describe('sight_machine_cloud and remotedatapost defaults', () => {
  it('a transmit with only a name uploads with remotedatapost to the cloud block\'s tenant', () => {
    const { violations, config } = validateConfiguration({ data_transmit: [{ transmit_name: 'tiger_moth' }], sight_machine_cloud: CLOUD });
    expect(violations).toEqual([]);
    expect(config!.data_transmit[0]).toMatchObject({ transmit_type: 'remotedatapost', base_url: CLOUD.base_url, API_key: 'cloud-key', API_key_ID: CLOUD.api_key_id });
  });

  it('takes both spellings of the key pair, and the transmit\'s own values first', () => {
    const cloud = { base_url: CLOUD.base_url, API_key: 'upper-key', API_key_ID: 'upper-id' };
    const { violations, config } = validateConfiguration({ data_transmit: [{ transmit_name: 'a' }, { transmit_name: 'b', API_key: 'own-key' }], sight_machine_cloud: cloud });
    expect(violations).toEqual([]);
    expect(config!.data_transmit.map((t) => ('API_key' in t ? [t.API_key, t.API_key_ID] : []))).toEqual([['upper-key', 'upper-id'], ['own-key', 'upper-id']]);
  });

  it('says what is missing and where it may be set', () => {
    const { violations } = validateConfiguration({ data_transmit: [{ transmit_name: 'a', base_url: 'https://x.example.com' }] });
    expect(at(violations, ['data_transmit', 0]).map((v) => v.description)).toEqual([
      'API_key is missing: set the edge API key here, or api_key in sight_machine_cloud for every transmit.',
      'API_key_ID is missing: set the edge API key id here, or api_key_id in sight_machine_cloud for every transmit.',
    ]);
  });

  it('refuses the two spellings with different values, and checks the shared base_url where it is written', () => {
    const { violations } = validateConfiguration({ data_transmit: [{ transmit_name: 'a' }], sight_machine_cloud: { ...CLOUD, API_key: 'other', base_url: 'cloudyday' } });
    expect(at(violations, ['sight_machine_cloud', 'API_key'])[0]).toMatchObject({ level: 'error', description: expect.stringMatching(/written two ways/) });
    expect(at(violations, ['sight_machine_cloud', 'base_url'])[0]).toMatchObject({ level: 'error', description: expect.stringMatching(/not a web address/) });
  });

  it('warns when a transmit sends to another tenant than sight_machine_cloud (it wins)', () => {
    const { violations } = validateConfiguration({ data_transmit: [{ transmit_name: 'a', base_url: 'https://other.sightmachine.io' }], sight_machine_cloud: CLOUD });
    expect(violations).toEqual([expect.objectContaining({ json_path: ['data_transmit', 0, 'base_url'], level: 'warning', description: expect.stringMatching(/uploads to https:\/\/other\.sightmachine\.io, not to sight_machine_cloud's/) })]);
  });

  it('max_request_size_bytes above 4 MiB is capped with a warning (the legacy sample values)', () => {
    const transmit = { transmit_name: 'a', max_request_records: 3000, poll_interval: 30, timeout: 120, max_request_size_bytes: 6_000_000 };
    const { violations, config } = validateConfiguration({ data_transmit: [transmit], sight_machine_cloud: CLOUD });
    expect(violations).toEqual([expect.objectContaining({ json_path: ['data_transmit', 0, 'max_request_size_bytes'], level: 'warning', description: expect.stringMatching(/cap of 4194304 bytes/) })]);
    expect(config).toBeDefined();
    expect(at(validateConfiguration({ data_transmit: [{ ...transmit, max_request_size_bytes: 100 }], sight_machine_cloud: CLOUD }).violations, ['data_transmit', 0, 'max_request_size_bytes'])[0]?.level).toBe('error');
  });

  it('masks the cloud api_key, keeps it when the mask comes back, and redacts it from logs', () => {
    const stored = { data_transmit: [{ transmit_name: 'a' }], sight_machine_cloud: CLOUD };
    const masked = maskSecrets(stored);
    expect(masked.sight_machine_cloud.api_key).toBe(SECRET_MASK);
    expect(masked.sight_machine_cloud.api_key_id).toBe(CLOUD.api_key_id);
    const { config, violations } = unmaskSecrets(masked, stored) as { config: typeof stored; violations: unknown[] };
    expect(violations).toEqual([]);
    expect(config.sight_machine_cloud.api_key).toBe('cloud-key');
    expect(collectSecrets(stored)).toEqual(['cloud-key']);
  });

  it('refuses the masked cloud api_key when the block points at another tenant or key id', () => {
    const stored = { data_transmit: [{ transmit_name: 'a' }], sight_machine_cloud: CLOUD };
    for (const change of [{ base_url: 'https://attacker.example.com' }, { api_key_id: 'someone_else' }]) {
      const incoming = maskSecrets(stored);
      Object.assign(incoming.sight_machine_cloud, change);
      const { violations } = unmaskSecrets(incoming, stored);
      expect(violations).toEqual([expect.objectContaining({ json_path: ['sight_machine_cloud', 'api_key'], level: 'error' })]);
    }
    // The same account written with the other spelling of the key id keeps it.
    const respelled = maskSecrets(stored) as any;
    respelled.sight_machine_cloud.API_key_ID = respelled.sight_machine_cloud.api_key_id;
    delete respelled.sight_machine_cloud.api_key_id;
    expect(unmaskSecrets(respelled, stored).violations).toEqual([]);
  });
});

describe('what the product family has and Tributary has not', () => {
  it.each([
    [{ protocol: 's3' }, ['data_receiver', 0, 'protocol'], /protocol "s3": Tributary has no Amazon S3 receiver/],
    [{ protocol: 'azure_data_lake_gen2' }, ['data_receiver', 0, 'protocol'], /no Azure Data Lake Storage Gen2 receiver/],
    [{ protocol: 'enact' }, ['data_receiver', 0, 'protocol'], /no InfinityQS Enact receiver/],
  ])('receiver %j is an error that says so', (change, path, says) => {
    const doc = specExampleConfiguration() as any;
    Object.assign(doc.data_receiver[0], change);
    expect(at(validateConfiguration(doc).violations, path)[0]).toMatchObject({ level: 'error', description: expect.stringMatching(says) });
  });

  it.each([
    ['data_transmit', { transmit_type: 'rdpv3', topic_prefix: 'x' }, ['data_transmit', 0, 'transmit_type'], /cannot send with rdpv3/],
    ['data_transmit', { transmit_type: 'azure_iot_hub' }, ['data_transmit', 0, 'transmit_type'], /no Azure IoT Hub transmit; it sends with remotedatapost \(RDP2\) or mqtt/],
    ['transforms', { transform_type: 'tap', format: 'csv' }, ['transforms', 0, 'transform_type'], /no tap transform; a csv transmit/],
  ])('%s %j is an error that says so', (section, change, path, says) => {
    const doc = specExampleConfiguration() as any;
    Object.assign(doc[section][0], change);
    expect(at(validateConfiguration(doc).violations, path)[0]).toMatchObject({ level: 'error', description: expect.stringMatching(says) });
  });

  it('an attachment parser is an error that says so', () => {
    const doc = specExampleConfiguration() as any;
    doc.data_receiver[0].parsers[0] = { parser_name: 'csv', parser_type: 'attachment' };
    expect(at(validateConfiguration(doc).violations, ['data_receiver', 0, 'parsers', 0, 'parser_type'])[0]?.description).toMatch(/no attachment parser/);
  });

  it.each(['counter_assign_column', 'counter_event_string', 'pandas'])('the legacy %s transform is accepted with a warning that it will be skipped', (type) => {
    const doc = specExampleConfiguration() as any;
    doc.transforms.push({ transform_name: 'legacy', transform_type: type, filter_stream: ['*'], column: 'x' });
    const { violations, config } = validateConfiguration(doc);
    expect(config).toBeDefined();
    expect(violations).toEqual([expect.objectContaining({ json_path: ['transforms', 1, 'transform_type'], level: 'warning', description: expect.stringMatching(/will be skipped \(records pass through unchanged\)/) })]);
  });

  it('retrieve_ordered_files (S3 only) warns that it has no effect; process_ordered_connections false on smb too', () => {
    const doc = specExampleConfiguration() as any;
    doc.data_receiver[0].connections[0].retrieve_ordered_files = true;
    expect(validateConfiguration(doc).violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'retrieve_ordered_files'], level: 'warning' })]);
  });

  it('a configuration without data_transmit is valid with a warning that records go nowhere', () => {
    const doc = specExampleConfiguration() as any;
    delete doc.data_transmit;
    const { violations, config } = validateConfiguration(doc);
    expect(config?.data_transmit).toEqual([]);
    expect(violations).toEqual(expect.arrayContaining([expect.objectContaining({ json_path: ['data_transmit'], level: 'warning', description: expect.stringMatching(/sent nowhere/) })]));
  });
});

describe('OPC UA tags with namespace_index', () => {
  it.each([
    [{ name: 'Counter1', namespace_index: 5 }, 'ns=5;s=Counter1'],
    [{ name: 'i=1001', namespace_index: 3 }, 'ns=3;i=1001'],
    [{ name: 'ns=5;s=Counter1', namespace_index: 5 }, 'ns=5;s=Counter1'],
    [{ name: 'ns=2;s=Line1.Temp' }, 'ns=2;s=Line1.Temp'],
  ])('%j reads node %s', (tag, node) => expect(tagNodeId(tag)).toBe(node));

  const receiver = (tags: unknown[], connection: Record<string, unknown> = {}) => ({
    data_receiver: [{ data_receiver_name: 'plc', protocol: 'opcua', connections: [{ host: 'plc', ...connection }], streams: [{ asset: 'XX_YY_TestMachine_1', stream_type: 'process1', opcua_tags: tags }] }],
    data_transmit: [{ transmit_name: 'a' }],
    sight_machine_cloud: CLOUD,
  });

  it('accepts the product family\'s stream (port defaults to 4840, server_name is the endpoint path)', () => {
    const { violations, config } = validateConfiguration(receiver([{ name: 'Counter1', exportname: 'Simulator_Counter', namespace_index: 5 }], { server_name: 'iaopcua' }));
    expect(violations).toEqual([]);
    expect((config!.data_receiver[0] as any).connections[0].port).toBe(4840);
  });

  it('refuses a namespace_index that disagrees with the ns= in name, and two endpoint paths', () => {
    const { violations } = validateConfiguration(receiver([{ name: 'ns=2;s=A', exportname: 'a', namespace_index: 5 }], { server_name: 'a', endpoint_path: '/b' }));
    expect(at(violations, ['data_receiver', 0, 'streams', 0, 'opcua_tags', 0, 'namespace_index'])[0]?.description).toMatch(/disagrees with the ns=2/);
    expect(at(violations, ['data_receiver', 0, 'connections', 0, 'server_name'])[0]?.description).toMatch(/different endpoints/);
  });
});
