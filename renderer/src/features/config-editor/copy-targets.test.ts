import { describe, expect, it } from 'vitest';
import type { FleetAgent } from '../../../../shared/api/fleet.js';
import { copyBlocks, secretKey } from '../../../../shared/config/copy-blocks.js';
import { SECRET_MASK } from '../../../../shared/config/schema.js';
import { checkKey, copyTargets, describePlan, pickable, prepareDocument, secretLabel } from './copy-targets.js';
import { formatDocument } from './document-text.js';

const row = (name: string, extra: Partial<FleetAgent> = {}): FleetAgent => ({
  name, url: `https://${name}:4900`, reachable: true, state: 'running', health: 'ok', last_seen: null,
  version: '0.1.0', revision: 1, streams: { total: 0, flowing: 0, stale: 0 }, backlog_records: 0, error: null,
  self: false, fingerprint: null, presented_fingerprint: null, ...extra,
});
const fleet = [
  row('desk', { self: true, url: 'local' }),
  row('hall-2'),
  row('hall-3', { reachable: false, error: 'unreachable since 10:02' }),
  row('hall-4', { presented_fingerprint: 'AB', error: 'certificate changed' }),
];

describe('copyTargets', () => {
  it('offers every other agent, the desk\'s own one through no proxy, and says why one cannot be used now', () => {
    const targets = copyTargets(fleet, null);
    expect(targets.map((t) => t.name)).toEqual(['hall-2', 'hall-3', 'hall-4']);
    expect(targets[0]).toMatchObject({ at: { via: 'hall-2' }, unavailable: undefined });
    expect(targets[1]?.unavailable).toBe('unreachable since 10:02');
    expect(targets[2]?.unavailable).toBe('certificate changed');
  });

  it('leaves out the agent being managed (the source) and offers this agent instead', () => {
    const targets = copyTargets(fleet, 'hall-2');
    expect(targets.map((t) => t.label)).toEqual(['desk (this agent)', 'hall-3', 'hall-4']);
    expect(targets[0]?.at).toEqual({ local: true });
  });
});

const source = {
  data_receiver: [
    { data_receiver_name: 'press', protocol: 'sql', connections: [{ host: 'db-a', password: SECRET_MASK }] },
  ],
  transforms: [],
  data_transmit: [{ transmit_name: 'exports', transmit_type: 'csv', directory: '/data/a/exports' }],
};

describe('the copy of one target', () => {
  const empty = {
    data_receiver: [],
    transforms: [],
    data_transmit: [{ transmit_name: 'exports', transmit_type: 'csv' }],
  };
  const plan = copyBlocks(source, empty, { receivers: ['press'], transmits: ['exports'] });

  it('lists what can be picked and says what the merge adds and replaces', () => {
    expect(pickable(source)).toEqual({ receivers: ['press'], transmits: ['exports'] });
    expect(pickable({ data_receiver: 'not a list' })).toEqual({ receivers: [], transmits: [] });
    expect(describePlan(plan)).toBe('Adds receiver press. Replaces transmit exports (its own block of that name).');
    expect(describePlan({ added: [], replaced: [] })).toContain('Nothing changes');
  });

  it('names a secret by its block, and puts typed secrets into the (possibly fixed) text', () => {
    expect(plan.secrets).toHaveLength(1);
    expect(secretLabel(plan.secrets[0]!, plan.config))
      .toBe('password of receiver press (data_receiver[0].connections[0].password)');
    const fixed = formatDocument(plan.config).replace('/data/a/exports', 'exports');
    const typed = { [secretKey(plan.secrets[0]!.json_path)]: 'pw-1' };
    const prepared = prepareDocument(fixed, plan.secrets, typed);
    expect(prepared).toMatchObject({ missing: [], document: { data_transmit: [{ directory: 'exports' }] } });
    expect(JSON.stringify(prepared)).toContain('"password":"pw-1"');
    expect(prepareDocument(fixed, plan.secrets, {})).toMatchObject({ missing: [{ key: 'password' }] });
  });

  it('refuses a text that is not a JSON object, in words', () => {
    expect(prepareDocument('{"data_receiver": [', plan.secrets, {}))
      .toMatchObject({ problem: expect.stringContaining('not valid JSON') });
    expect(prepareDocument('[]', plan.secrets, {}))
      .toEqual({ problem: 'The configuration on the right must be a JSON object.' });
  });

  it('ties a check to the exact text and secrets it was run on', () => {
    expect(checkKey('a', { x: '1', y: '2' })).toBe(checkKey('a', { y: '2', x: '1' }));
    expect(checkKey('a', { x: '1' })).not.toBe(checkKey('a', { x: '2' }));
    expect(checkKey('a', {})).not.toBe(checkKey('b', {}));
  });
});
