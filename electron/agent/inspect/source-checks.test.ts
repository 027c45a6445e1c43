/**
 * Validation that looks at the sources: POST /v1/config/validate warns about a folder that does not
 * exist or is not a folder, a share folder that is missing or refused, and a stream no file matches
 * yet. Local folders in temp directories (shares: source-checks.integration.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../shared/testing/config-fixtures.js';
import { validationFixture } from '../../testing/validation-fixture.js';

const fixture = validationFixture();
const { validate } = fixture;

function reading(folder: string) {
  const config = specExampleConfiguration();
  config.data_receiver[0]!.connections = [{ root_path: folder }];
  return config;
}

describe('validation of local folders and file filters', () => {
  it('warns at root_path when the folder does not exist, and passes', async () => {
    const folder = path.join(fixture.server.dataDirectory, 'no-such-folder');
    const result = await validate(reading(folder));
    expect(result.status).toBe('passed');
    expect(result.violations).toEqual([
      expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'root_path'], description: `The folder ${folder} does not exist: nothing is read from it until that changes.` }),
    ]);
  });

  it('warns when root_path names a file, not a folder', async () => {
    const file = path.join(fixture.server.dataDirectory, 'a-file.csv');
    fs.writeFileSync(file, 'x\n');
    const [violation] = (await validate(reading(file))).violations;
    expect(violation).toMatchObject({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'root_path'] });
    expect(violation!.description).toContain('is not a folder');
  });

  it('warns at file_filter for each stream no file matches yet, naming what is there', async () => {
    const folder = fs.mkdtempSync(path.join(fixture.server.dataDirectory, 'drop-'));
    fs.writeFileSync(path.join(folder, 'press1_20260105.csv'), 'time\n');
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'hello\n');
    const result = await validate(reading(folder));
    expect(result.violations).toEqual([
      expect.objectContaining({
        level: 'warning',
        json_path: ['data_receiver', 0, 'streams', 1, 'file_filter'],
        description: `No file in ${folder} matches ["oven2_*.csv"] yet: this stream reads nothing until one arrives. Files there: notes.txt, press1_20260105.csv.`,
      }),
    ]);
    // Once a file arrives, the warning goes.
    fs.writeFileSync(path.join(folder, 'oven2_20260105.csv'), 'time\n');
    expect((await validate(reading(folder))).violations).toEqual([]);
  });

  it('says when an earlier stream takes every file a later stream would match', async () => {
    const folder = fs.mkdtempSync(path.join(fixture.server.dataDirectory, 'drop-'));
    fs.writeFileSync(path.join(folder, 'press1_20260105.csv'), 'time\n');
    const config = reading(folder);
    config.data_receiver[0]!.streams = [
      { asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'] },
      { asset: 'Press_1', stream_type: 'alarms', file_filter: ['press1_*.csv'] },
    ];
    const [violation] = (await validate(config)).violations;
    expect(violation).toMatchObject({ json_path: ['data_receiver', 0, 'streams', 1, 'file_filter'] });
    expect(violation!.description).toContain('is read by the stream Press_1:cycle listed before this one');
  });

  it('leaves a receiver with errors of its own (template prompts) alone, and the save carries the warnings', async () => {
    const template = (await fixture.server.call('GET', '/v1/config/templates/localfile')).json.response;
    const result = await validate(template);
    expect(result.status).toBe('failed');
    expect(result.violations.filter((v) => v.level === 'warning' && String(v.json_path.at(-1)).match(/root_path|data_directory|file_filter/))).toEqual([]);
    const saved = await fixture.server.call('POST', '/v1/config', reading(path.join(fixture.server.dataDirectory, 'later')));
    expect(saved.json.success).toBe(true);
    expect(saved.json.meta.violations).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0, 'connections', 0, 'root_path'] })]);
  });
});
