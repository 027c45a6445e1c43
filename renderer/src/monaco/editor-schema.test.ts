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

  it('has a snippet per receiver template, with the prompts as tab stops', () => {
    const snippets = at(schema, 'properties', 'data_receiver', 'items', 'defaultSnippets');
    expect(snippets.map((s: { label: string }) => s.label)).toEqual(['localfile receiver', 'smb receiver', 'sql receiver', 'opcua receiver', 'mqtt receiver']);
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
    expect(transmits.map((s: { label: string }) => s.label)).toEqual(['remotedatapost transmit', 'csv transmit', 'mqtt transmit']);
  });
});
