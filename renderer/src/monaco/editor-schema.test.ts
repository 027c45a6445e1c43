import { describe, expect, it } from 'vitest';
import { editorSchema } from './editor-schema.js';

const at = (schema: Record<string, unknown>, ...path: string[]) => path.reduce<any>((node, key) => node?.[key], schema);

describe('editorSchema', () => {
  const schema = editorSchema(['Europe/Berlin', 'UTC']);

  it('offers time zone names wherever the shared schema marks a time zone', () => {
    const text = JSON.stringify(schema);
    const marked = text.split('"format":"iana-time-zone"').length - 1;
    expect(marked).toBeGreaterThanOrEqual(3);
    expect(text.split('"examples":["Europe/Berlin","UTC"]').length - 1).toBe(marked);
  });

  it('offers the codec names for file_encoding and a parser\'s encoding (completion)', () => {
    const found: { key: string; examples: unknown }[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, { examples?: unknown }> }).properties;
      for (const key of ['file_encoding', 'encoding']) if (properties?.[key]) found.push({ key, examples: properties[key].examples });
      Object.values(node).forEach(walk);
    };
    walk(schema);
    expect(found.filter((f) => f.key === 'file_encoding').length).toBeGreaterThanOrEqual(1);
    for (const { examples } of found) expect(examples).toEqual(expect.arrayContaining(['utf_8', 'cp1252', 'shift_jis']));
  });

  it('has a snippet per receiver template, with the prompts as tab stops', () => {
    const snippets = at(schema, 'properties', 'data_receiver', 'items', 'defaultSnippets');
    expect(snippets.map((s: { label: string }) => s.label)).toEqual(['localfile receiver', 'smb receiver', 'sql receiver', 'opcua receiver', 'mqtt receiver', 'modbus receiver', 's7 receiver']);
    const localfile = snippets[0].body;
    expect(localfile.connections[0].root_path).toBe('${1:absolute path of the folder the machines write to}');
    // A literal $ or } in a template value cannot start a tab stop.
    expect(JSON.stringify(snippets)).not.toMatch(/[^\\]\$(?!\{\d)/);
  });

  it('has a snippet per transform and transmit kind, from the schema, without the legacy kinds', () => {
    const transforms = at(schema, 'properties', 'transforms', 'items', 'defaultSnippets');
    expect(transforms.map((s: { label: string }) => s.label)).toEqual(['convert_timestamps transform', 'rename transform', 'filter transform', 'checksum_record transform']);
    expect(transforms[1].body).toEqual({ transform_name: '${1:transform_name}', filter_stream: ['*'], transform_type: 'rename', renames: {} });
    const transmits = at(schema, 'properties', 'data_transmit', 'items', 'defaultSnippets');
    expect(transmits.map((s: { label: string }) => s.label)).toEqual(['remotedatapost transmit', 'csv transmit', 'mqtt transmit', 'sql transmit', 'influxdb transmit', 'mqtt transmit (template)', 'sparkplug_b transmit (template)', 'sql transmit (template)', 'influxdb transmit (template)', 'influxdb_v2 transmit (template)']);
    // The Sparkplug template's prompts are tab stops, its new options filled in.
    expect(transmits[6].body).toMatchObject({ transmit_type: 'mqtt', payload_format: 'sparkplug_b', group_id: '${4:Sparkplug group id, e.g. Plant1}', edge_node_id: '${5:edge node id of this PC, e.g. tributary-line3}' });
  });

  it('offers every field of a modbus receiver with its description (completion and hover) and its enum values', () => {
    const receiver = (at(schema, 'properties', 'data_receiver', 'items', 'oneOf') ?? at(schema, 'properties', 'data_receiver', 'items', 'anyOf')).find(
      (b: { properties: { protocol: { const: string } } }) => b.properties.protocol.const === 'modbus',
    );
    const described = (node: { properties: Record<string, { description?: string }> }, keys: string[]) => {
      for (const key of keys) expect(node.properties[key]?.description, key).toMatch(/\w{3,}/);
    };
    described(receiver, ['data_receiver_name', 'poll_interval', 'connections', 'streams']);
    described(receiver.properties.connections.items, ['host', 'port', 'timeout']);
    const stream = receiver.properties.streams.items;
    described(stream, ['asset', 'stream_type', 'unit_id', 'modbus_registers']);
    const register = stream.properties.modbus_registers.items;
    described(register, ['exportname', 'table', 'address', 'data_type', 'bit', 'length', 'byte_order', 'scale', 'offset']);
    expect(register.properties.table.enum).toEqual(['holding', 'input', 'coil', 'discrete']);
    expect(register.properties.data_type.enum).toEqual(['bool', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64', 'string']);
    expect(register.properties.byte_order.enum).toEqual(['ABCD', 'CDAB', 'BADC', 'DCBA']);
    expect(register.properties.address.description).toMatch(/40001 means address 0/);
  });

  it('offers the addresses of an s7 receiver as completions and explains them on hover', () => {
    const receiver = (at(schema, 'properties', 'data_receiver', 'items', 'oneOf') ?? at(schema, 'properties', 'data_receiver', 'items', 'anyOf')).find(
      (b: { properties: { protocol: { const: string } } }) => b.properties.protocol.const === 's7',
    );
    for (const key of ['host', 'port', 'rack', 'slot', 'timeout']) expect(receiver.properties.connections.items.properties[key]?.description, key).toMatch(/\w{3,}/);
    const tag = receiver.properties.streams.items.properties.s7_tags.items;
    expect(tag.properties.address.examples).toEqual(expect.arrayContaining(['DB1,REAL0', 'DB1,X6.0', 'DB1,S20.16', 'MW10', 'M0.1', 'I0.0', 'Q0.1']));
    expect(tag.properties.address.description).toMatch(/DB1\.DBD0 names no type: write DB1,REAL0 or DB1,DINT0/);
    expect(tag.properties.address.description).toMatch(/optimized access off/);
  });

  it('offers the Sparkplug B options of the mqtt transmit and receiver with their descriptions (completion)', () => {
    const transmit = (at(schema, 'properties', 'data_transmit', 'items', 'oneOf') ?? at(schema, 'properties', 'data_transmit', 'items', 'anyOf')).find(
      (b: { properties: { transmit_type: { const: string } } }) => b.properties.transmit_type.const === 'mqtt',
    );
    expect(transmit.properties.payload_format.enum).toEqual(['json', 'sparkplug_b']);
    for (const key of ['group_id', 'edge_node_id', 'primary_host_id']) expect(transmit.properties[key].description).toMatch(/sparkplug_b/);
    // An mqtt receiver's streams: a Sparkplug B stream snippet, its topic a tab stop.
    const receiver = (at(schema, 'properties', 'data_receiver', 'items', 'oneOf') ?? at(schema, 'properties', 'data_receiver', 'items', 'anyOf')).find(
      (b: { properties: { protocol: { const: string } } }) => b.properties.protocol.const === 'mqtt',
    );
    const streams = receiver.properties.streams.items;
    expect(streams.properties.payload_format.enum).toEqual(['json', 'value', 'sparkplug_b']);
    expect(streams.defaultSnippets.map((s: { label: string }) => s.label)).toEqual(['json stream (template)', 'sparkplug_b stream (template)']);
    expect(streams.defaultSnippets[1].body).toEqual({
      asset: '${1:machine name (the Sparkplug device)}',
      stream_type: '${2:kind of data, e.g. state}',
      topic: '${3:Sparkplug topic, e.g. spBv1.0/Line3/DDATA/edge-9/Mixer_3 (+ and # allowed)}',
      payload_format: 'sparkplug_b',
    });
  });
});

describe('key completion', () => {
  const schema = editorSchema(['UTC']);
  /** Each property schema of the document, with its path, as Monaco's completion sees it. */
  const properties = (): { path: string; node: Record<string, unknown> }[] => {
    const out: { path: string; node: Record<string, unknown> }[] = [];
    const walk = (node: unknown, path: string): void => {
      if (node === null || typeof node !== 'object') return;
      const own = (node as { properties?: Record<string, Record<string, unknown>> }).properties;
      for (const [key, value] of Object.entries(own ?? {})) out.push({ path: `${path}.${key}`, node: value });
      for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`);
    };
    walk(schema, '');
    return out;
  };

  it('gives every property something Monaco makes a value placeholder of ("key": …), unions too', () => {
    // Monaco writes `"key": ` and a placeholder from type, enum, const, default, examples or snippets;
    // without any of them (a union) it inserted the bare key.
    // Left out: keys that take any value (pandas keywords Tributary ignores); there is no type to offer.
    const anyValue = (node: Record<string, unknown>) => Object.keys(node).every((k) => k === 'description' || k === 'title');
    const bare = properties().filter(({ node }) => !anyValue(node) && !['type', 'enum', 'const', 'default', 'examples', 'defaultSnippets', '$ref'].some((k) => k in node) && !(node.properties || node.items));
    expect(bare.map((p) => p.path)).toEqual([]);
  });

  it('types a union by its branches, null last', () => {
    const unions = properties().filter(({ node }) => Array.isArray(node.anyOf ?? node.oneOf));
    expect(unions.length).toBeGreaterThan(0);
    for (const { node } of unions) expect(node.type).toBeDefined();
    const nullable = unions.find(({ node }) => Array.isArray(node.type) && (node.type as string[]).includes('null'));
    if (nullable) expect((nullable.node.type as string[]).at(-1)).toBe('null');
  });
});
