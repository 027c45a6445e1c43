/**
 * Every parser type, receiver and transmit can be found from the editor (issue 56 point 2): a
 * snippet for each, and completion at a discriminator offers every kind, not only the kinds the
 * object under the cursor already resembles.
 */
import { describe, expect, it } from 'vitest';
import { PARSER_TYPES } from '../../../shared/config/parsers/derive.js';
import { RECEIVER_PROTOCOLS } from '../../../shared/config/receivers/derive.js';
import { TRANSMIT_TYPES } from '../../../shared/config/transmits/derive.js';
import { editorSchema } from './editor-schema.js';

type Schema = Record<string, any>;
const schema: Schema = editorSchema(['UTC']);
const branchesOf = (items: Schema): Schema[] => items.oneOf ?? items.anyOf ?? [items];
const receivers = schema.properties.data_receiver.items;
const transmits = schema.properties.data_transmit.items;
const fileReceivers = branchesOf(receivers).filter((b) => b.properties.parsers);
const labels = (items: Schema) => (items.defaultSnippets as { label: string }[]).map((s) => s.label);

describe('the editor offers every kind', () => {
  it('has a parser snippet of every parser type in each file receiver, Excel, JSON and XML included', () => {
    expect(PARSER_TYPES).toEqual(expect.arrayContaining(['csv', 'spreadsheet', 'excel', 'json', 'xml']));
    expect(fileReceivers.map((b) => b.properties.protocol.const)).toEqual(['localfile', 'smb']);
    for (const receiver of fileReceivers) {
      const parsers = receiver.properties.parsers.items;
      expect(labels(parsers).sort()).toEqual(PARSER_TYPES.map((t) => `${t} parser`).sort());
      const excel = parsers.defaultSnippets.find((s: { label: string }) => s.label === 'excel parser').body;
      expect(excel.parser_type).toBe('excel');
    }
  });

  it('offers every parser type at parser_type of any parser, whatever options it already has', () => {
    for (const receiver of fileReceivers)
      for (const branch of branchesOf(receiver.properties.parsers.items)) expect(branch.properties.parser_type.enum).toEqual(PARSER_TYPES);
  });

  it('has a snippet of every receiver protocol and offers every protocol at protocol', () => {
    for (const protocol of RECEIVER_PROTOCOLS) expect(labels(receivers)).toContain(`${protocol} receiver`);
    for (const branch of branchesOf(receivers)) expect(branch.properties.protocol.enum).toEqual([...RECEIVER_PROTOCOLS]);
  });

  it('has a snippet of every transmit type and offers every type at transmit_type, but no legacy transform kind', () => {
    for (const type of TRANSMIT_TYPES) expect(labels(transmits)).toContain(`${type} transmit`);
    for (const branch of branchesOf(transmits)) expect(branch.properties.transmit_type.enum).toEqual([...TRANSMIT_TYPES]);
    const transformKinds = branchesOf(schema.properties.transforms.items)[0]!.properties.transform_type.enum as string[];
    expect(transformKinds).toEqual(['convert_timestamps', 'rename', 'filter', 'checksum_record']);
  });
});
