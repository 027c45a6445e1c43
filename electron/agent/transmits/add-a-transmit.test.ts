/**
 * docs/architecture.md's "How to add a transmit", done with a throwaway type: its configuration
 * folder (shared/testing/fixture-transmit) is added by one line to the registry list, its service by
 * one registration; the schema, validation, rule dispatch, templates, editor snippets, secret targets
 * and product-family sentence find it without any other edit.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TransmitDescriptor } from '../../../shared/config/transmits/descriptor.js';

// The "one line in the registry": the real list plus the fixture, as a new type would add it.
vi.mock('../../../shared/config/transmits/index.js', async (importOriginal) => {
  const real = await importOriginal<{ TRANSMIT_DESCRIPTORS: readonly TransmitDescriptor[] }>();
  const { fixtureTransmit } = await import('../../../shared/testing/fixture-transmit/index.js');
  return { ...real, TRANSMIT_DESCRIPTORS: [...real.TRANSMIT_DESCRIPTORS, fixtureTransmit] };
});

// `npm test` runs without isolation: another file may have loaded these modules with the real list.
vi.resetModules();
// ...and a file after this one must not see the fixture.
afterAll(() => {
  vi.doUnmock('../../../shared/config/transmits/index.js');
  vi.resetModules();
});
const { ConfigurationSchema, TRANSMIT_TYPES } = await import('../../../shared/config/schema.js');
const { validateConfiguration } = await import('../../../shared/config/validate.js');
const { TRANSMIT_TEMPLATES, TRANSMIT_TEMPLATE_TYPES } = await import('../../../shared/config/templates.js');
const { unmaskSecrets } = await import('../../../shared/config/secrets.js');
const { editorSchema } = await import('../../../renderer/src/monaco/editor-schema.js');
const { builtInComponents } = await import('../catalog/built-in.js');
const { RECORDS_JSON } = await import('../components/records-json-codec.js');

const pigeon = (extra: Record<string, unknown> = {}) => ({
  transmit_name: 'coop',
  transmit_type: 'pigeon',
  loft: 'Loft-7',
  ...extra,
});
const configuration = (...transmits: object[]) => ({ data_receiver: [], transforms: [], data_transmit: transmits });
const descriptions = (config: object) => validateConfiguration(config).violations.map((v) => v.description);

describe('a transmit type added by one registry line', () => {
  it('is accepted by the schema (defaults filled in) and listed; its messages reach the engineer', () => {
    expect(TRANSMIT_TYPES).toEqual(['remotedatapost', 'csv', 'mqtt', 'sql', 'influxdb', 'pigeon']);
    const parsedPigeon = ConfigurationSchema.parse(configuration(pigeon())).data_transmit[0];
    expect(parsedPigeon).toMatchObject({ birds: 3, filter_stream: ['*'] });
    expect(validateConfiguration(configuration(pigeon({ birds: 0 }))).violations).toContainEqual(
      expect.objectContaining({
        json_path: ['data_transmit', 0, 'birds'],
        description: 'birds must be at least 1, but it is the number 0.',
      }),
    );
    // The other types are unchanged: a transmit without transmit_type is still remotedatapost.
    const parsed = ConfigurationSchema.parse(configuration({ transmit_name: 'cloud', base_url: 'https://a.example' }));
    expect(parsed.data_transmit[0]).toMatchObject({ transmit_type: 'remotedatapost' });
  });

  it('has its rules dispatched by validation, at the json_path to change, and not for a valid value', () => {
    expect(validateConfiguration(configuration(pigeon({ birds: 60 }))).violations).toContainEqual(expect.objectContaining({
      json_path: ['data_transmit', 0, 'birds'],
      level: 'warning',
      description: '60 birds are more than one loft holds (50).',
    }));
    const valid = descriptions(configuration(pigeon({ birds: 50 })));
    expect(valid).not.toContainEqual(expect.stringContaining('birds'));
  });

  it('is listed by the templates, the editor snippets and the product-family sentence', () => {
    expect(TRANSMIT_TEMPLATE_TYPES).toEqual(['remotedatapost', 'mqtt', 'sparkplug_b', 'sql', 'influxdb', 'influxdb_v2', 'pigeon']);
    expect(TRANSMIT_TEMPLATES).toHaveProperty('pigeon.transmit_name', 'pigeons');
    type Snippet = { label: string; description: string };
    type Snippets = { properties: { data_transmit: { items: { defaultSnippets: Snippet[] } } } };
    const snippets = (editorSchema([]) as Snippets).properties.data_transmit.items.defaultSnippets;
    expect(snippets).toContainEqual(expect.objectContaining({
      label: 'pigeon transmit (template)',
      description: 'A carrier pigeon transmit from the template; Tab moves to each value to fill in.',
    }));
    expect(descriptions(configuration({ transmit_name: 'k', transmit_type: 'rdpv3' })).join('\n')).toContain(
      'it sends with remotedatapost (RDP2), mqtt or carrier pigeons, or writes csv files, database tables or InfluxDB points.',
    );
  });

  it('keeps its saved password only while its own target is unchanged, beside an mqtt transmit', () => {
    const broker = { transmit_name: 'uns', transmit_type: 'mqtt', host: 'broker', password: 'b-secret' };
    const stored = configuration(pigeon({ password: 'p-secret' }), broker);
    // unmaskSecrets restores into the incoming objects: each call gets its own.
    const masked = (extra: object = {}) => ({ ...broker, password: '********', ...extra });
    const same = unmaskSecrets(configuration(pigeon({ password: '********' }), masked()), stored);
    expect(same.violations).toEqual([]);
    expect(same.config).toEqual(stored);
    // "Loft-7" and "loft-7" are one loft (the fixture's target reads it case-insensitively).
    const sameLoft = unmaskSecrets(configuration(pigeon({ loft: 'loft-7', password: '********' })), stored);
    expect(sameLoft.violations).toEqual([]);
    const incoming = configuration(pigeon({ loft: 'Loft-9', password: '********' }), masked({ host: 'other' }));
    const moved = unmaskSecrets(incoming, stored);
    const loftChanged = /^Re-enter the password: the loft changed \(loft "Loft-7" → "Loft-9"\)/;
    const brokerChanged = /^Re-enter the password: the broker changed \(host "broker" → "other"/;
    expect(moved.violations.map((v) => [v.json_path, v.description])).toEqual([
      [['data_transmit', 0, 'password'], expect.stringMatching(loftChanged)],
      [['data_transmit', 1, 'password'], expect.stringMatching(brokerChanged)],
    ]);
  });

  it('runs once its service is registered beside the others in built-in.ts', async () => {
    const factory = () => undefined as never;
    expect(builtInComponents().has('Transmit', 'pigeon')).toBe(false);
    const registry = builtInComponents().transmit('pigeon', RECORDS_JSON, async () => ({ default: factory }));
    expect(registry.has('Transmit', 'pigeon')).toBe(true);
    expect(registry.outbox('pigeon')).toBe(RECORDS_JSON);
    expect(await registry.factory('Transmit', 'pigeon')).toBe(factory);
  });
});
