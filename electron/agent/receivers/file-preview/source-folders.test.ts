/** The preview's local reader when a listed file goes away before it is read (review of issue 39's merge). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SourceProblem, localFolder } from './source-folders.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('localFolder', () => {
  it('says in words that a listed file is gone when its size or bytes are asked for', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-folder-'));
    made.push(root);
    fs.writeFileSync(path.join(root, 'press.csv'), 'a,b\n1,2\n');
    const folder = localFolder({ root_path: root });
    expect((await folder.list()).files).toEqual([{ relative: 'press.csv' }]);
    expect(await folder.size('press.csv')).toBe(8);
    fs.unlinkSync(path.join(root, 'press.csv'));
    await expect(folder.size('press.csv')).rejects.toBeInstanceOf(SourceProblem);
    await expect(folder.read('press.csv', 0, 100)).rejects.toThrow(/press\.csv is gone \(removed after it was listed\)/);
  });
});
