/** Names that become folders (components/<kind>/<name>) never leave them: refused at their json_path. */
import { describe, expect, it } from 'vitest';
import { componentFolderName, folderNameProblem, folderNameViolations } from './name-rules.js';
import { validateConfiguration } from './validate.js';

describe('names that become folders', () => {
  it('refuses empty, dot-only and separator names, and accepts ordinary ones', () => {
    for (const bad of ['', '  ', '.', '..', '...', 'a/../..', 'line\\1', '/etc']) expect(folderNameProblem(bad), bad).toBeDefined();
    for (const good of ['press-1', 'Line 2', 'a.b', '.hidden', 'Presse_3 (Halle 2)', 'a..b']) expect(folderNameProblem(good), good).toBeUndefined();
  });

  it('reports receiver, parser, transform and transmit names at their json_path', () => {
    const config = {
      data_receiver: [{ data_receiver_name: '..', parsers: [{ parser_name: 'csv' }, { parser_name: 'a/b' }] }],
      transforms: [{ transform_name: '.' }],
      data_transmit: [{ transmit_name: 'out\\x' }],
    };
    expect(folderNameViolations(config).map((v) => v.json_path)).toEqual([
      ['data_receiver', 0, 'data_receiver_name'],
      ['data_receiver', 0, 'parsers', 1, 'parser_name'],
      ['transforms', 0, 'transform_name'],
      ['data_transmit', 0, 'transmit_name'],
    ]);
  });

  it('is part of validation, in the console too (no context needed)', () => {
    const { violations } = validateConfiguration({ data_receiver: [], transforms: [], data_transmit: [{ transmit_name: '..', transmit_type: 'csv' }] });
    expect(violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'transmit_name'], level: 'error', description: expect.stringContaining('"." is the folder itself') }));
  });

  it('keeps even an old saved dot name inside its kind\'s folder', () => {
    expect(componentFolderName('press-1')).toBe('press-1');
    expect(componentFolderName('a/../..')).toBe('a%2F..%2F..');
    expect(componentFolderName('..')).toBe('%2E%2E');
    expect(componentFolderName('.')).toBe('%2E');
  });
});
