/**
 * docs/architecture.md's "How to add a parser", done with a throwaway type: its configuration folder
 * (shared/testing/fixture-parser) is added by one line to the registry list, its reader
 * (electron/testing/fixture-parser) by one line to the agent's parser registry; the schema, rule
 * dispatch, editor snippets and the agent's file reading find it without any other edit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ParserDescriptor } from '../../../shared/config/parsers/descriptor.js';

// The "one line in the registry" on each side: the real list plus the fixture, as a new type would add it.
vi.mock('../../../shared/config/parsers/index.js', async (importOriginal) => {
  const real = await importOriginal<{ PARSER_DESCRIPTORS: readonly ParserDescriptor[] }>();
  const { fixtureParser } = await import('../../../shared/testing/fixture-parser/index.js');
  return { ...real, PARSER_DESCRIPTORS: [...real.PARSER_DESCRIPTORS, fixtureParser] };
});
vi.mock('./registry.js', async (importOriginal) => {
  const real = await importOriginal<{ DOCUMENT_READERS: Record<string, unknown> }>();
  const { openFixtureReader } = await import('../../testing/fixture-parser/reader.js');
  return { ...real, DOCUMENT_READERS: { ...real.DOCUMENT_READERS, fixture: openFixtureReader } };
});

// `npm test` runs without isolation: another file may have loaded these modules with the real lists.
vi.resetModules();
// ...and a file after this one must not see the fixture.
afterAll(() => {
  vi.doUnmock('../../../shared/config/parsers/index.js');
  vi.doUnmock('./registry.js');
  vi.resetModules();
});
const { ConfigurationSchema } = await import('../../../shared/config/schema.js');
const { PARSER_TYPES, PARSER_TEMPLATES } = await import('../../../shared/config/parsers/derive.js');
const { validateConfiguration } = await import('../../../shared/config/validate.js');
const { editorSchema } = await import('../../../renderer/src/monaco/editor-schema.js');
const { previewFiles } = await import('../receivers/file-preview/file-preview.js');
const { bufferSource, openDocumentReader } = await import('./document/index.js');

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-fixture-parser-'));
const agentData = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-fixture-agent-'));
afterAll(() => {
  for (const dir of [folder, agentData]) fs.rmSync(dir, { recursive: true, force: true });
});

const receiver = (parser: Record<string, unknown>) => ({
  data_receiver_name: 'files',
  protocol: 'localfile',
  connections: [{ root_path: folder }],
  streams: [{ asset: 'Press_1', stream_type: 'counts', file_filter: ['*.kv'] }],
  parsers: [{ parser_name: 'pairs', parser_type: 'fixture', ...parser }],
});
const configuration = (parser: Record<string, unknown> = {}) => ({ data_receiver: [receiver(parser)], transforms: [], data_transmit: [] });
const PARSER = ['data_receiver', 0, 'parsers', 0];

describe('a parser type added by one registry line on each side', () => {
  it('is accepted by the schema (defaults filled in) and listed among the parser types', () => {
    expect(PARSER_TYPES).toEqual(['spreadsheet', 'csv', 'excel', 'json', 'xml', 'fixture']);
    const parsed = ConfigurationSchema.parse(configuration());
    expect(parsed.data_receiver[0]).toMatchObject({ parsers: [{ parser_type: 'fixture', options: { separator: '=' } }] });
    // The schema's own messages reach the engineer as for any type.
    const unnamed = validateConfiguration(configuration({ parser_name: '' })).violations;
    expect(unnamed).toContainEqual(expect.objectContaining({ json_path: [...PARSER, 'parser_name'], level: 'error' }));
  });

  it('has its rules dispatched by validation, at the json_path to change, and not for a valid value', () => {
    const letter = validateConfiguration(configuration({ options: { separator: 'x' } })).violations;
    expect(letter).toContainEqual(expect.objectContaining({
      json_path: [...PARSER, 'options', 'separator'],
      level: 'error',
      description: '"x" would split names; use a sign such as "=".',
    }));
    const sign = validateConfiguration(configuration({ options: { separator: ':' } })).violations;
    expect(sign.filter((v) => v.json_path.includes('separator'))).toEqual([]);
  });

  it('is offered by the editor as a parser snippet, and its template must be filled in', () => {
    expect(Object.keys(PARSER_TEMPLATES)).toEqual(['excel', 'json', 'xml', 'fixture']);
    type Branch = { properties: { protocol: { const: string }; parsers?: { items: { defaultSnippets: { label: string }[] } } } };
    type Schema = { properties: { data_receiver: { items: { oneOf?: Branch[]; anyOf?: Branch[] } } } };
    const items = (editorSchema([]) as Schema).properties.data_receiver.items;
    const localfile = (items.oneOf ?? items.anyOf)!.find((b) => b.properties.protocol.const === 'localfile')!;
    expect(localfile.properties.parsers!.items.defaultSnippets.map((s) => s.label)).toContain('fixture parser');
    const unfilled = validateConfiguration({ ...configuration(), data_receiver: [{ ...receiver({}), parsers: [PARSER_TEMPLATES.fixture] }] });
    expect(unfilled.violations).toContainEqual(expect.objectContaining({ json_path: [...PARSER, 'options', 'separator'], level: 'error' }));
    expect(unfilled.violations.find((v) => v.json_path.join('.') === `${PARSER.join('.')}.options.separator`)!.description).toMatch(/fill in/i);
  });

  it('reads a file on the agent through the reader registered for it, skipping a bad line with its place', async () => {
    fs.writeFileSync(path.join(folder, 'shift.kv'), 'count=7,state=run\nbroken\ncount=8,state=stop\n');
    const parsed = ConfigurationSchema.parse(configuration()).data_receiver[0]!;
    if (!('parsers' in parsed)) throw new Error('a file receiver');
    const [preview] = await previewFiles(parsed, 5, 1_767_589_200_000_000n, agentData);
    expect(preview!.records.map((r) => r.fieldvalues)).toEqual([
      { count: 7, state: 'run' },
      { count: 8, state: 'stop' },
    ]);
    expect(preview!.problems).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining('shift.kv line 2: "broken" has no "="') })]);
  });

  it('stops a file with a reason, not a crash, when the agent has no reader for a type', () => {
    const config = { parser_name: 'abacus', parser_type: 'abacus' } as never;
    expect(() => openDocumentReader(config, bufferSource(Buffer.from('a=1')), 'beads.abc')).toThrow(
      'beads.abc: this build has no reader for parser_type abacus.',
    );
  });
});
