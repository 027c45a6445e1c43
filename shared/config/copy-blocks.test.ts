import { describe, expect, it } from 'vitest';
import { copyBlocks, secretKey, withSecrets } from './copy-blocks.js';
import { SECRET_MASK } from './schema.js';

const sql = (name: string, host: string, password = SECRET_MASK) => ({
  data_receiver_name: name,
  data_receiver_type: 'SQL',
  connections: [
    {
      connection_name: 'main', database_type: 'PostgreSQL', host, port: 5432,
      username: 'reader', password, database_name: 'plant',
    },
  ],
});
const transmit = (name: string, base_url: string) =>
  ({ transmit_name: name, transmit_type: 'cloud', base_url, API_key_ID: 'id-1', API_key: SECRET_MASK });

// Both sides as GET /v1/config answers them: secrets masked.
const source = {
  data_receiver: [sql('press', 'db-a'), sql('oven', 'db-a')],
  transforms: [],
  data_transmit: [transmit('cloud', 'https://a.example')],
};
const names = (config: Record<string, unknown>) =>
  (config.data_receiver as { data_receiver_name: string }[]).map((r) => r.data_receiver_name);
const paths = (plan: ReturnType<typeof copyBlocks>) => plan.secrets.map((s) => secretKey(s.json_path));

describe('copyBlocks', () => {
  it('appends a new block, replaces one of the same name in place and says which', () => {
    const target = { data_receiver: [sql('oven', 'db-a'), sql('local', 'db-b')], transforms: [], data_transmit: [] };
    const plan = copyBlocks(source, target, { receivers: ['press', 'oven'], transmits: [] });
    expect(plan.added).toEqual(['receiver press']);
    expect(plan.replaced).toEqual(['receiver oven']);
    expect(names(plan.config)).toEqual(['oven', 'local', 'press']);
    expect(plan.config.data_transmit).toEqual([]);
    // The target's own objects are not changed by the merge.
    expect(target.data_receiver.map((r) => r.data_receiver_name)).toEqual(['oven', 'local']);
  });

  it('keeps the target\'s secret for the same block on the same server; asks for it on a new block', () => {
    const target = { data_receiver: [sql('oven', 'db-a')], transforms: [], data_transmit: [] };
    const plan = copyBlocks(source, target, { receivers: ['press', 'oven'], transmits: [] });
    expect(paths(plan)).toEqual(['data_receiver.1.connections.0.password']);
    expect(plan.secrets[0]?.key).toBe('password');
  });

  it('asks for the secret when the target\'s block of that name talks to another server or account', () => {
    const target = {
      data_receiver: [sql('oven', 'db-other')],
      transforms: [],
      data_transmit: [transmit('cloud', 'https://b.example')],
    };
    const plan = copyBlocks(source, target, { receivers: ['oven'], transmits: ['cloud'] });
    expect(paths(plan)).toEqual(['data_receiver.0.connections.0.password', 'data_transmit.0.API_key']);
    expect(plan.secrets[0]?.reason).toContain('db-other');
  });

  it('ignores names that the source does not have', () => {
    const empty = { data_receiver: [], transforms: [], data_transmit: [] };
    const plan = copyBlocks(source, empty, { receivers: ['nothing'], transmits: [] });
    expect(plan.added).toEqual([]);
    expect(plan.secrets).toEqual([]);
  });
});

describe('withSecrets', () => {
  it('puts the typed secrets in and lists the ones still missing (empty or masked counts as missing)', () => {
    const target = { data_receiver: [], transforms: [], data_transmit: [] };
    const plan = copyBlocks(source, target, { receivers: ['press'], transmits: ['cloud'] });
    expect(plan.secrets).toHaveLength(2);
    const password = 'data_receiver.0.connections.0.password';
    const partly = withSecrets(plan, { [password]: 'pw-1', 'data_transmit.0.API_key': SECRET_MASK });
    expect(partly.missing.map((s) => s.key)).toEqual(['API_key']);
    const done = withSecrets(plan, { [password]: 'pw-1', 'data_transmit.0.API_key': 'key-1' });
    expect(done.missing).toEqual([]);
    expect((done.config.data_receiver as ReturnType<typeof sql>[])[0]?.connections[0]?.password).toBe('pw-1');
    expect((done.config.data_transmit as ReturnType<typeof transmit>[])[0]?.API_key).toBe('key-1');
    // The plan stays masked: typing again starts from it.
    expect((plan.config.data_transmit as ReturnType<typeof transmit>[])[0]?.API_key).toBe(SECRET_MASK);
  });

  it('lists a secret whose place was edited away as missing instead of failing', () => {
    const target = { data_receiver: [], transforms: [], data_transmit: [] };
    const plan = copyBlocks(source, target, { receivers: ['press'], transmits: [] });
    // The engineer deleted the connection in the dialog's editor after the plan was made.
    const edited = { ...plan.config, data_receiver: [{ ...sql('press', 'db-a'), connections: [] }] };
    const typed = { 'data_receiver.0.connections.0.password': 'pw-1' };
    const result = withSecrets({ config: edited, secrets: plan.secrets }, typed);
    expect(result.missing.map((s) => s.key)).toEqual(['password']);
  });
});
