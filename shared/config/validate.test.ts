import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExampleConfiguration, specExampleConfiguration } from '../testing/config-fixtures.js';
import { TRANSMIT_TEMPLATES, allTemplates, templateFor } from './templates.js';
import { validateConfiguration } from './validate.js';
import type { JsonPath } from './violations.js';

type Doc = ExampleConfiguration & Record<string, any>;
const receiver = (doc: Doc) => doc.data_receiver[0] as Record<string, any>;

interface Case {
  name: string;
  change: (doc: Doc) => void;
  path: JsonPath;
  level?: 'error' | 'warning';
  says?: RegExp;
}

const cases: Case[] = [
  // structure
  { name: 'data_transmit not a list', change: (d) => ((d as any).data_transmit = {}), path: ['data_transmit'], says: /must be a list/ },
  { name: 'data_transmit missing warns', change: (d) => delete (d as any).data_transmit, path: ['data_transmit'], level: 'warning', says: /sent nowhere/ },
  { name: 'unknown top-level key with hint', change: (d) => ((d as any).data_recevier = []), path: ['data_recevier'], says: /Did you mean "data_receiver"/ },
  { name: 'unknown protocol', change: (d) => (receiver(d).protocol = 'bacnet'), path: ['data_receiver', 0, 'protocol'], says: /localfile, smb, sql, opcua/ },
  { name: 'misspelt protocol gets a hint', change: (d) => (receiver(d).protocol = 'localfiles'), path: ['data_receiver', 0, 'protocol'], says: /Did you mean "localfile"/ },
  { name: 'poll_interval as text', change: (d) => (receiver(d).poll_interval = 'fast'), path: ['data_receiver', 0, 'poll_interval'], says: /whole number|a number/ },
  { name: 'poll_interval fractional', change: (d) => (receiver(d).poll_interval = 2.5), path: ['data_receiver', 0, 'poll_interval'], says: /whole number/ },
  { name: 'poll_interval 0 below minimum', change: (d) => (receiver(d).poll_interval = 0), path: ['data_receiver', 0, 'poll_interval'], says: /at least 1/ },
  { name: 'poll_interval above 65535', change: (d) => (receiver(d).poll_interval = 65536), path: ['data_receiver', 0, 'poll_interval'], says: /at most 65535/ },
  { name: 'delete_completed not boolean', change: (d) => (receiver(d).delete_completed = 'yes'), path: ['data_receiver', 0, 'delete_completed'], says: /true or false/ },
  { name: 'no connections', change: (d) => (receiver(d).connections = []), path: ['data_receiver', 0, 'connections'], says: /at least 1 connection/ },
  { name: 'no parsers', change: (d) => (receiver(d).parsers = []), path: ['data_receiver', 0, 'parsers'], says: /at least 1 parser/ },
  { name: 'no streams', change: (d) => (receiver(d).streams = []), path: ['data_receiver', 0, 'streams'], says: /at least 1 stream/ },
  { name: 'streams missing', change: (d) => delete receiver(d).streams, path: ['data_receiver', 0, 'streams'], says: /required/ },
  { name: 'empty receiver name', change: (d) => (receiver(d).data_receiver_name = ''), path: ['data_receiver', 0, 'data_receiver_name'], says: /must not be empty/ },
  { name: 'additional receiver property', change: (d) => (receiver(d).pol_interval = 5), path: ['data_receiver', 0, 'pol_interval'], says: /Did you mean "poll_interval"/ },
  { name: 'file_filter not a list', change: (d) => (receiver(d).streams[1].file_filter = '*.csv'), path: ['data_receiver', 0, 'streams', 1, 'file_filter'], says: /a list/ },
  { name: 'unknown parser_type', change: (d) => (receiver(d).parsers[0].parser_type = 'excell'), path: ['data_receiver', 0, 'parsers', 0, 'parser_type'], says: /spreadsheet/ },
  { name: 'bad bad_lines_action', change: (d) => (receiver(d).parsers[0].options.parse.bad_lines_action = 'ignore'), path: ['data_receiver', 0, 'parsers', 0, 'options', 'parse', 'bad_lines_action'], says: /"error", "warn", "skip"/ },
  { name: 'header negative', change: (d) => (receiver(d).parsers[0].options.parse.header = -1), path: ['data_receiver', 0, 'parsers', 0, 'options', 'parse', 'header'] },
  { name: 'transmit missing API_key_ID', change: (d) => delete (d.data_transmit[0] as any).API_key_ID, path: ['data_transmit', 0], says: /API_key_ID is missing: .* or api_key_id in sight_machine_cloud/ },
  { name: 'unknown transmit_type', change: (d) => ((d.data_transmit[0] as any).transmit_type = 'kafka'), path: ['data_transmit', 0, 'transmit_type'], says: /remotedatapost/ },
  { name: 'unknown transform_type', change: (d) => ((d.transforms[0] as any).transform_type = 'convert_timestamp'), path: ['transforms', 0, 'transform_type'], says: /Did you mean "convert_timestamps"/ },
  { name: 'timeout zero', change: (d) => (d.data_transmit[0]!.timeout = 0), path: ['data_transmit', 0, 'timeout'] },
  { name: 'sql unknown database_type', change: (d) => (d.data_receiver as any[]).push({ ...sqlReceiver(), connections: [{ ...sqlReceiver().connections[0], database_type: 'oracle' }] }), path: ['data_receiver', 1, 'connections', 0, 'database_type'], says: /mssql/ },
  { name: 'sql unknown data_type', change: (d) => (d.data_receiver as any[]).push({ ...sqlReceiver(), streams: [{ ...sqlReceiver().streams[0], state_fields: [{ column_name: 'id', data_type: 'bigint' }] }] }), path: ['data_receiver', 1, 'streams', 0, 'state_fields', 0, 'data_type'] },
  // semantics
  { name: 'duplicate receiver names', change: (d) => (d.data_receiver as any[]).push({ ...structuredClone(receiver(d)) }), path: ['data_receiver', 1, 'data_receiver_name'], says: /already used by receiver 1/ },
  { name: 'duplicate transform names', change: (d) => (d.transforms as any[]).push(structuredClone(d.transforms[0])), path: ['transforms', 1, 'transform_name'], says: /already used/ },
  { name: 'duplicate transmit names', change: (d) => (d.data_transmit as any[]).push(structuredClone(d.data_transmit[0])), path: ['data_transmit', 1, 'transmit_name'], says: /already used/ },
  { name: 'duplicate stream in a receiver', change: (d) => receiver(d).streams.push(structuredClone(receiver(d).streams[0])), path: ['data_receiver', 0, 'streams', 2], says: /defined twice/ },
  { name: 'stream names a missing parser', change: (d) => (receiver(d).streams[0].parser = 'xml'), path: ['data_receiver', 0, 'streams', 0, 'parser'], says: /No parser named "xml"/ },
  { name: 'no parser matches a stream', change: (d) => (receiver(d).parsers[0].filter_stream = ['Press_1:cycle']), path: ['data_receiver', 0, 'streams', 1], says: /No parser of this receiver reads/ },
  { name: 'malformed filter_stream', change: (d) => (d.transforms[0]!.filter_stream = ['Press_1']), path: ['transforms', 0, 'filter_stream', 0], says: /not a stream filter/ },
  { name: 'filter matching no stream warns', change: (d) => (d.transforms[0]!.filter_stream = ['Mill_9:*']), path: ['transforms', 0, 'filter_stream', 0], level: 'warning', says: /matches none/ },
  { name: 'unknown time zone in transform', change: (d) => (d.transforms[0]!.timezone = 'Mars/Olympus'), path: ['transforms', 0, 'timezone'], says: /not a known time zone/ },
  { name: 'unknown localtz in parser', change: (d) => (receiver(d).parsers[0].options.localtz = 'CET+1'), path: ['data_receiver', 0, 'parsers', 0, 'options', 'localtz'] },
  { name: 'bad strptime directive', change: (d) => (receiver(d).parsers[0].options.parse.parse_timestamps[0].format = '%Y-%m-%d %Q'), path: ['data_receiver', 0, 'parsers', 0, 'options', 'parse', 'parse_timestamps', 0, 'format'], says: /%Q/ },
  { name: 'format and unit together', change: (d) => Object.assign(d.transforms[0]!, { format: '%Y', unit: 's' }), path: ['transforms', 0, 'unit'], says: /not both/ },
  { name: 'connection without folder', change: (d) => (receiver(d).connections = [{ connection_name: 'c' }]), path: ['data_receiver', 0, 'connections', 0], says: /root_path/ },
  { name: 'relative folder warns', change: (d) => (receiver(d).connections = [{ root_path: 'data/in' }]), path: ['data_receiver', 0, 'connections', 0, 'root_path'], level: 'warning' },
  { name: 'delete_completed true warns', change: (d) => (receiver(d).delete_completed = true), path: ['data_receiver', 0, 'delete_completed'], level: 'warning', says: /deleted/ },
  { name: 'asset with colon', change: (d) => (receiver(d).streams[0].asset = 'Line:1'), path: ['data_receiver', 0, 'streams', 0, 'asset'], says: /":"/ },
  { name: 'base_url not a URL', change: (d) => (d.data_transmit[0]!.base_url = 'acme.example.com'), path: ['data_transmit', 0, 'base_url'], says: /https:\/\// },
  { name: 'http base_url warns', change: (d) => (d.data_transmit[0]!.base_url = 'http://acme.example.com'), path: ['data_transmit', 0, 'base_url'], level: 'warning' },
  { name: 'template prompt left in', change: (d) => (receiver(d).connections[0].root_path = '<fill in: folder>'), path: ['data_receiver', 0, 'connections', 0, 'root_path'], says: /Fill in root_path/ },
  { name: 'placeholder without state field', change: (d) => (d.data_receiver as any[]).push({ ...sqlReceiver(), streams: [{ ...sqlReceiver().streams[0], query: 'SELECT * FROM t WHERE id > :id AND ts > :ts ORDER BY id' }] }), path: ['data_receiver', 1, 'streams', 0, 'query'], says: /:ts has no state field/ },
  { name: 'state field without placeholder', change: (d) => (d.data_receiver as any[]).push({ ...sqlReceiver(), streams: [{ ...sqlReceiver().streams[0], query: 'SELECT * FROM t ORDER BY id' }] }), path: ['data_receiver', 1, 'streams', 0, 'state_fields', 0, 'column_name'], says: /no placeholder :id/ },
  { name: 'query without ORDER BY warns', change: (d) => (d.data_receiver as any[]).push({ ...sqlReceiver(), streams: [{ ...sqlReceiver().streams[0], query: 'SELECT * FROM t WHERE id > :id' }] }), path: ['data_receiver', 1, 'streams', 0, 'query'], level: 'warning', says: /ORDER BY/ },
  { name: 'duplicate OPC UA column', change: (d) => (d.data_receiver as any[]).push(opcuaReceiver([{ name: 'ns=2;s=A', exportname: 'temp' }, { name: 'ns=2;s=B', exportname: 'temp' }])), path: ['data_receiver', 1, 'streams', 0, 'opcua_tags', 1, 'exportname'], says: /already used/ },
  // filter transform values (transform-rules.ts)
  { name: 'filter in needs a list', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'in', value: 5 })), path: ['transforms', 1, 'value'], says: /needs a list/ },
  { name: 'filter nin without value', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'nin' })), path: ['transforms', 1, 'value'], says: /missing/ },
  { name: 'filter in with an empty list warns', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'in', value: [] })), path: ['transforms', 1, 'value'], level: 'warning', says: /no record will pass/ },
  { name: 'filter exists takes no value', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'exists', value: 'x' })), path: ['transforms', 1, 'value'], says: /takes no value/ },
  { name: 'filter gt with true', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'gt', value: true })), path: ['transforms', 1, 'value'], says: /number or a text/ },
  { name: 'filter lte with a list', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'lte', value: [1] })), path: ['transforms', 1, 'value'], says: /a list/ },
  { name: 'filter eq with a list', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'eq', value: [1, 2] })), path: ['transforms', 1, 'value'], says: /Use op in/ },
  { name: 'filter ne without value', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'ne' })), path: ['transforms', 1, 'value'], says: /missing/ },
  { name: 'filter contains with null', change: (d) => (d.transforms as any[]).push(filterTransform({ op: 'contains', value: null })), path: ['transforms', 1, 'value'], says: /text/ },
];

function sqlReceiver() {
  return {
    data_receiver_name: 'mes',
    protocol: 'sql',
    connections: [{ host: 'db', port: 5432, username: 'u', password: 'p', database_type: 'postgresql', database_name: 'mes', ssl: false }],
    streams: [{ asset: 'Press_1', stream_type: 'orders', query: 'SELECT * FROM t WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }],
  };
}

function filterTransform(condition: Record<string, unknown>) {
  return { transform_name: 'only_running', transform_type: 'filter', filter_stream: ['*'], field_name: 'state', ...condition };
}

function opcuaReceiver(tags: { name: string; exportname: string }[]) {
  return { data_receiver_name: 'plc', protocol: 'opcua', connections: [{ host: 'plc', port: 4840 }], streams: [{ asset: 'Press_1', stream_type: 'tags', opcua_tags: tags }] };
}

describe('validateConfiguration', () => {
  it('passes the configuration from the spec example with no violations at all', () => {
    const result = validateConfiguration(specExampleConfiguration());
    expect(result.violations).toEqual([]);
    const first = result.config?.data_receiver[0];
    expect(first && 'poll_interval' in first ? first.poll_interval : undefined).toBe(5);
  });

  it.each(cases)('$name → violation at its json_path', ({ change, path, level = 'error', says }) => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    change(doc);
    const { violations } = validateConfiguration(doc);
    const found = violations.find((v) => JSON.stringify(v.json_path) === JSON.stringify(path) && v.level === level);
    expect(found, `violations were: ${JSON.stringify(violations, null, 1)}`).toBeDefined();
    if (says) expect(found!.description).toMatch(says);
  });

  it('reports every problem of a broken document, not only the first', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    receiver(doc).poll_interval = -1;
    (doc.data_transmit[0] as any).timeout = 'soon';
    (doc.transforms as any[]).push(structuredClone(doc.transforms[0]));
    const paths = validateConfiguration(doc).violations.map((v) => JSON.stringify(v.json_path));
    expect(paths).toEqual(
      expect.arrayContaining([
        JSON.stringify(['data_receiver', 0, 'poll_interval']),
        JSON.stringify(['data_transmit', 0, 'timeout']),
        JSON.stringify(['transforms', 1, 'transform_name']),
      ]),
    );
  });

  it('reports a misspelled key, a wrong value, an unknown zone and a bad encoding in one pass', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    receiver(doc).pol_interval = 5;
    receiver(doc).delete_completed = 'yes';
    receiver(doc).parsers[0].options.localtz = 'Europe/Berln';
    receiver(doc).parsers[0].options.parse.encoding = 'utf-9';
    const found = validateConfiguration(doc).violations.map((v) => [v.json_path.join('.'), v.description]);
    const at = (path: string) => found.find(([p]) => p === path)?.[1];
    expect(at('data_receiver.0.pol_interval')).toMatch(/Did you mean "poll_interval"/);
    expect(at('data_receiver.0.delete_completed')).toMatch(/true or false/);
    expect(at('data_receiver.0.parsers.0.options.localtz')).toMatch(/Did you mean "Europe\/Berlin"/);
    expect(at('data_receiver.0.parsers.0.options.parse.encoding')).toMatch(/not a supported encoding/);
  });

  it('does not report a zone twice nor flag a good one when its receiver is otherwise broken', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    receiver(doc).pol_interval = 5;
    receiver(doc).parsers[0].options.localtz = 'Europe/Berlin';
    const paths = validateConfiguration(doc).violations.map((v) => v.json_path.join('.'));
    expect(paths).toEqual(['data_receiver.0.pol_interval']);
    receiver(doc).parsers[0].options.localtz = 'Europe/Berln';
    const zone = validateConfiguration(doc).violations.filter((v) => v.json_path.at(-1) === 'localtz');
    expect(zone).toHaveLength(1);
    expect(zone[0]!.description).toMatch(/Did you mean "Europe\/Berlin"/);
  });

  it('runs the semantic rules of a receiver whose only fault is a misspelt key', () => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    receiver(doc).pol_interval = 5;
    receiver(doc).streams[0].parser = 'xml';
    const paths = validateConfiguration(doc).violations.map((v) => v.json_path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['data_receiver.0.pol_interval', 'data_receiver.0.streams.0.parser']));
  });

  it('treats a non-object document as one error at the root', () => {
    for (const doc of [null, [], 'config', 42]) {
      const { violations } = validateConfiguration(doc);
      expect(violations).toHaveLength(1);
      expect(violations[0]!.json_path).toEqual([]);
      expect(violations[0]!.level).toBe('error');
    }
  });

  it('never throws and always answers with well-formed violations, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 5 }), (input) => {
        const { violations } = validateConfiguration(input);
        for (const v of violations) {
          expect(['error', 'warning']).toContain(v.level);
          expect(v.description.length).toBeGreaterThan(0);
          expect(v.json_path.every((p) => typeof p === 'string' || (Number.isInteger(p) && p >= 0))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on mutations of a valid configuration', () => {
    const leaf = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), leaf), { maxLength: 4 }), (edits) => {
        const doc = structuredClone(specExampleConfiguration()) as unknown as Record<string, unknown>;
        for (const [pick, value] of edits) {
          const slots: [Record<string, unknown>, string][] = [];
          const collect = (node: unknown) => {
            if (node && typeof node === 'object') for (const key of Object.keys(node)) { slots.push([node as Record<string, unknown>, key]); collect((node as Record<string, unknown>)[key]); }
          };
          collect(doc);
          const [parent, key] = slots[pick % slots.length]!;
          parent[key] = value;
        }
        expect(() => validateConfiguration(doc)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe('templates', () => {
  it('lists Basic, Localfile, SMB, SQL, OPCUA, MQTT, Modbus TCP and Siemens S7', () => {
    expect(allTemplates().map((t) => t.name)).toEqual(['Basic', 'Localfile', 'SMB', 'SQL', 'OPCUA', 'MQTT', 'Modbus TCP', 'Siemens S7']);
  });

  it('the Basic template is valid and has three empty arrays', () => {
    expect(templateFor('basic')).toEqual({ data_receiver: [], transforms: [], data_transmit: [] });
    expect(validateConfiguration(templateFor('basic')).violations).toEqual([]);
  });

  it.each(['localfile', 'smb', 'sql', 'opcua', 'mqtt', 'modbus', 's7'])('the %s template is structurally right and only asks to fill in its prompts', (protocol) => {
    const { violations } = validateConfiguration(templateFor(protocol));
    expect(violations.length).toBeGreaterThan(0);
    for (const v of violations) expect(v.description, JSON.stringify(v)).toMatch(/^Fill in /);
  });

  it('the sparkplug_b transmit template is structurally right and only asks to fill in its prompts', () => {
    const { violations } = validateConfiguration({ data_receiver: [], transforms: [], data_transmit: [structuredClone(TRANSMIT_TEMPLATES.sparkplug_b)] });
    expect(violations.map((v) => v.json_path.at(-1)).sort()).toEqual(['edge_node_id', 'group_id', 'host', 'password', 'username']);
    for (const v of violations) expect(v.description, JSON.stringify(v)).toMatch(/^Fill in /);
  });

  it('the file templates name root_path as the docs and the demo do, and ask for the time zone instead of assuming UTC', () => {
    const localfile = templateFor('localfile') as { data_receiver: { connections: Record<string, unknown>[]; parsers: { options: { localtz: string } }[] }[] };
    expect(Object.keys(localfile.data_receiver[0]!.connections[0]!)).toEqual(['root_path']);
    for (const protocol of ['localfile', 'smb']) {
      const template = templateFor(protocol) as typeof localfile;
      expect(JSON.stringify(template)).not.toContain('data_directory');
      expect(template.data_receiver[0]!.parsers[0]!.options.localtz).toMatch(/^<fill in: time zone/);
    }
  });

  it('knows no template for an unknown protocol', () => {
    expect(templateFor('bacnet')).toBeUndefined();
  });
});

describe('filter transform values', () => {
  it.each([
    { op: 'in', value: [1, 'A'] },
    { op: 'nin', value: ['A'] },
    { op: 'exists' },
    { op: 'lt', value: 5 },
    { op: 'gte', value: '2026-01-01' },
    { op: 'eq', value: null },
    { op: 'ne', value: false },
    { op: 'contains', value: 'err' },
    { op: 'startswith', value: 7 },
  ])('accepts %j', (condition) => {
    const doc = structuredClone(specExampleConfiguration()) as Doc;
    (doc.transforms as any[]).push(filterTransform(condition));
    expect(validateConfiguration(doc).violations).toEqual([]);
  });
});
