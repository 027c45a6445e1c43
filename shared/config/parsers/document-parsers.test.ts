import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../testing/config-fixtures.js';
import { validateConfiguration } from '../validate.js';
import { PARSER_TEMPLATES } from './derive.js';
import { LINE_PARSER_TYPES, PARSER_DESCRIPTORS, isDocumentParser } from './index.js';

const withParser = (parser: Record<string, unknown>) => {
  const doc = specExampleConfiguration() as any;
  doc.data_receiver[0].parsers[0] = { parser_name: doc.data_receiver[0].parsers[0].parser_name, ...parser };
  return doc;
};
const OPTIONS = ['data_receiver', 0, 'parsers', 0, 'options'];
const problems = (parser: Record<string, unknown>) => validateConfiguration(withParser(parser)).violations.map((v) => ({ at: v.json_path, level: v.level, says: v.description }));

describe('excel, json and xml parsers in a configuration', () => {
  it('accepts each option with pandas values', () => {
    expect(problems({ parser_type: 'excel', options: { sheet_name: 'Data', header: 2, skiprows: [0, 1], nrows: 100, usecols: 'A:C,E', localtz: 'Europe/Berlin', parse_timestamps: [{ field_name: 'time' }] } })).toEqual([]);
    expect(problems({ parser_type: 'excel', options: { sheet_name: 1, header: null, usecols: [0, 2] } })).toEqual([]);
    expect(problems({ parser_type: 'json', options: { lines: true, parse_timestamps: [{ field_name: 'machine.time', format: '%Y-%m-%dT%H:%M:%S' }] } })).toEqual([]);
    expect(problems({ parser_type: 'json', options: { record_path: ['data', 'rows'] } })).toEqual([]);
    expect(problems({ parser_type: 'xml', options: { xpath: '//d:row', namespaces: { d: 'urn:bench' } } })).toEqual([]);
    expect(problems({ parser_type: 'xml', options: { xpath: '/plant/line/machine' } })).toEqual([]);
  });

  it('names a mistyped option with the one meant', () => {
    const [problem] = problems({ parser_type: 'excel', options: { sheetname: 'Data' } });
    expect(problem).toMatchObject({ at: [...OPTIONS, 'sheetname'], level: 'error' });
    expect(problem!.says).toMatch(/sheet_name/);
    expect(problems({ parser_type: 'json', options: { record_pth: ['a'] } })[0]!.says).toMatch(/record_path/);
  });

  it('refuses what the parsers cannot read, at the option', () => {
    expect(problems({ parser_type: 'xml', options: { xpath: '//row[@id=1]' } })).toEqual([{ at: [...OPTIONS, 'xpath'], level: 'error', says: expect.stringMatching(/predicates/) }]);
    expect(problems({ parser_type: 'xml', options: { xpath: '//q:row' } })[0]!.says).toMatch(/prefix "q" is not in options.namespaces/);
    expect(problems({ parser_type: 'excel', options: { usecols: 'A-C' } })[0]).toMatchObject({ at: [...OPTIONS, 'usecols'], level: 'error' });
    expect(problems({ parser_type: 'excel', options: { usecols: ['a', 1] } })[0]!.says).toMatch(/not both/);
    expect(problems({ parser_type: 'json', options: { lines: true, record_path: 'data' } })[0]!.at).toEqual([...OPTIONS, 'record_path']);
    expect(problems({ parser_type: 'json', options: { parse_timestamps: [{ field_name: 't', format: '%Q' }] } })[0]!.at).toEqual([...OPTIONS, 'parse_timestamps', 0, 'format']);
  });

  it('offers a template of each type, whose values to fill in validation refuses until they are filled in', () => {
    for (const template of Object.values(PARSER_TEMPLATES)) {
      const said = problems(template);
      expect(said.length).toBeGreaterThan(0);
      expect(said.every((p) => /fill in/i.test(p.says))).toBe(true);
    }
  });
});

describe('how each parser type is read', () => {
  it('reads line by line exactly the types whose descriptor says lines (kinds.ts, without the schemas)', () => {
    const lines = PARSER_DESCRIPTORS.filter((d) => d.reads === 'lines').map((d) => d.type);
    expect([...LINE_PARSER_TYPES].sort()).toEqual([...lines].sort());
    for (const descriptor of PARSER_DESCRIPTORS)
      expect(isDocumentParser({ parser_type: descriptor.type }), descriptor.type).toBe(descriptor.reads === 'document');
  });
});
