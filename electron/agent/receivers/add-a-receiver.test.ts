/**
 * docs/architecture.md's "How to add a receiver", done with a throwaway protocol: its configuration
 * folder (shared/testing/fixture-receiver) is added by one line to the registry list, its preview
 * by one registration beside its service; the schema, templates, editor snippets, rule dispatch,
 * product-family sentence and the preview find it without any other edit.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ReceiverDescriptor } from '../../../shared/config/receivers/descriptor.js';

// The "one line in the registry": the real list plus the fixture, as a new protocol would add it.
vi.mock('../../../shared/config/receivers/index.js', async (importOriginal) => {
  const real = await importOriginal<{ RECEIVER_DESCRIPTORS: readonly ReceiverDescriptor[] }>();
  const { fixtureReceiver } = await import('../../../shared/testing/fixture-receiver/index.js');
  return { ...real, RECEIVER_DESCRIPTORS: [...real.RECEIVER_DESCRIPTORS, fixtureReceiver] };
});

// `npm test` runs without isolation: another file may have loaded these modules with the real list.
vi.resetModules();
// ...and a file after this one must not see the fixture.
afterAll(() => {
  vi.doUnmock('../../../shared/config/receivers/index.js');
  vi.resetModules();
});
const { ConfigurationSchema, RECEIVER_PROTOCOLS } = await import('../../../shared/config/schema.js');
const { validateConfiguration } = await import('../../../shared/config/validate.js');
const { allTemplates, RECEIVER_TEMPLATES, TEMPLATE_PROTOCOLS } = await import('../../../shared/config/templates.js');
const { editorSchema } = await import('../../../renderer/src/monaco/editor-schema.js');
const { builtInComponents } = await import('../catalog/built-in.js');
const { metaDetail, metaObjects } = await import('../../../shared/api/meta.js');
const { previewConfiguration } = await import('../inspect/config-preview.js');
const { Logger, Redactor } = await import('../logging/logger.js');
const { SystemClock } = await import('../time/clock.js');

const fixture = (register: number) => ({
  data_receiver_name: 'device',
  protocol: 'fixture',
  connections: [{ host: '10.0.0.7' }],
  streams: [{ asset: 'Press_1', stream_type: 'registers', register }],
});
const configuration = (register: number) => ({ data_receiver: [fixture(register)], transforms: [], data_transmit: [] });

describe('a receiver protocol added by one registry line', () => {
  it('is accepted by the schema (defaults filled in) and listed among the protocols', () => {
    expect(RECEIVER_PROTOCOLS).toEqual(['localfile', 'smb', 'sql', 'opcua', 'mqtt', 'modbus', 's7', 'fixture']);
    const parsed = ConfigurationSchema.parse(configuration(7));
    expect(parsed.data_receiver[0]).toMatchObject({ protocol: 'fixture', poll_interval: 5 });
    // The schema's own messages reach the engineer as for any protocol.
    const empty = validateConfiguration({ ...configuration(7), data_receiver: [{ ...fixture(7), connections: [] }] });
    expect(empty.violations).toContainEqual(
      expect.objectContaining({
        json_path: ['data_receiver', 0, 'connections'],
        description: 'A fixture receiver needs at least 1 connection.',
      }),
    );
  });

  it('has its rules dispatched by validation, at the json_path to change, and not for a valid value', () => {
    const far = validateConfiguration(configuration(250)).violations;
    expect(far).toContainEqual(expect.objectContaining({
      json_path: ['data_receiver', 0, 'streams', 0, 'register'],
      level: 'warning',
      description: "Register 250 is beyond the fixture's 100.",
    }));
    const near = validateConfiguration(configuration(100)).violations;
    expect(near.filter((v) => v.json_path.includes('register'))).toEqual([]);
  });

  it('is listed by the templates, the editor snippets and the product-family sentence', () => {
    expect(TEMPLATE_PROTOCOLS).toContain('fixture');
    expect(allTemplates().map((t) => t.name)).toEqual(['Basic', 'Localfile', 'SMB', 'SQL', 'OPCUA', 'MQTT', 'Modbus TCP', 'Siemens S7', 'Fixture']);
    expect(RECEIVER_TEMPLATES).toHaveProperty('fixture.data_receiver_name', 'fixture_device');
    type Snippets = { properties: { data_receiver: { items: { defaultSnippets: { label: string }[] } } } };
    const receivers = (editorSchema([]) as Snippets).properties.data_receiver.items;
    expect(receivers.defaultSnippets.map((s) => s.label)).toContain('fixture receiver');
    const s3 = validateConfiguration({ ...configuration(7), data_receiver: [{ protocol: 's3' }] }).violations;
    expect(s3.map((v) => v.description).join('\n')).toContain('it reads localfile, smb, sql, opcua, mqtt, modbus, s7 and fixture');
  });

  it('is listed in the deprecated meta objects from its descriptor\'s meta entry', () => {
    const receivers = metaObjects().find((o) => o.id === 'data_receiver')!;
    expect(receivers.subtypes!.map((s) => s.id)).toEqual(['localfile_csv', 'sql', 'smb_csv', 'opcua', 'fixture']);
    const detail = metaDetail('data_receiver_asset', 'fixture');
    expect(detail).toMatchObject({
      ok: true,
      detail: { new_template: { schema: { asset: 'asset_<<index>>', stream_type: 'data', register: 1 } } },
    });
  });

  it('is previewed through the capability registered beside its service (no case in config-preview.ts)', async () => {
    const registry = builtInComponents().receiver('fixture', async () => ({ default: () => undefined as never }), {
      preview: () => import('../../testing/fixture-receiver/preview.js'),
    });
    const clock = new SystemClock();
    const logger = new Logger({ append: () => undefined } as never, new Redactor(), clock, 'test');
    const context = { agentDataDirectory: '/nonexistent', logger, clock, registry, savedState: () => undefined };
    const result = await previewConfiguration(configuration(42), [], { rows: 5 }, context);
    expect(result).toMatchObject({
      receiver: 'device',
      protocol: 'fixture',
      streams: [
        { asset: 'Press_1', stream_type: 'registers', columns: ['register'], records: [{ fieldvalues: { register: 42 } }] },
      ],
    });
    // Without the registration the same receiver is refused with a clear reason, not a crash.
    const unregistered = { ...context, registry: builtInComponents() };
    await expect(previewConfiguration(configuration(42), [], { rows: 5 }, unregistered)).rejects.toThrow(
      'This build cannot preview fixture receivers.',
    );
  });
});
