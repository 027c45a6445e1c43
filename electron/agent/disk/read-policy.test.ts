/**
 * ReadPolicy: where file receivers and the preview may read and delete, on real paths (links and
 * `..` followed), checked right before the work, so that a link changed after validation counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { SourceProblem, localFolder } from '../receivers/file-preview/source-folders.js';
import { ReadPolicy, dataDirectoryReach, localFolderOfShare } from './read-policy.js';

describe('dataDirectoryReach', () => {
  it('refuses the data directory, folders above it and its own folders; allows its other folders and the rest', () => {
    const data = '/srv/tributary';
    expect(dataDirectoryReach('/srv/tributary', data)?.text).toBe("is the agent's data directory");
    expect(dataDirectoryReach('/srv', data)?.text).toBe("contains the agent's data directory /srv/tributary");
    expect(dataDirectoryReach('/', data)?.text).toBeDefined();
    expect(dataDirectoryReach('/srv/tributary/conf.d/history', data)?.text).toContain('own conf.d folder');
    for (const own of ['state', 'logs', 'components/receiver/x']) expect(dataDirectoryReach(`/srv/tributary/${own}`, data), own).toBeDefined();
    for (const free of ['/srv/tributary/demo/drop', '/srv/tributary/outbox', '/srv/tributary-drop', '/srv/other', '/srv/tributary/conf.dx']) expect(dataDirectoryReach(free, data), free).toBeUndefined();
  });
});

describe('ReadPolicy', () => {
  it('follows links and .. to the real path, for folders and for files', async () => {
    const data = tempDirectory();
    fs.mkdirSync(path.join(data, 'conf.d'));
    fs.writeFileSync(path.join(data, 'conf.d', 'tributary.json'), '{}');
    fs.writeFileSync(path.join(data, 'api-token'), 'x');
    const elsewhere = tempDirectory('tributary-drop-');
    const policy = new ReadPolicy(data);
    fs.symlinkSync(path.join(data, 'conf.d'), path.join(elsewhere, 'machines'));
    fs.symlinkSync(path.join(data, 'api-token'), path.join(elsewhere, 'token.csv'));
    fs.writeFileSync(path.join(elsewhere, 'press.csv'), 'a\n1\n');

    expect((await policy.refuseFolder(path.join(elsewhere, 'machines')))?.text).toContain(`its real path is ${fs.realpathSync(path.join(data, 'conf.d'))}`);
    expect((await policy.refuseFolder(`${elsewhere}/../${path.basename(data)}/logs/../conf.d`))?.text).toContain('own conf.d folder');
    expect(await policy.refuseFolder(elsewhere)).toBeUndefined();
    expect((await policy.refuseFile(path.join(elsewhere, 'token.csv')))?.text).toContain("is a file of the agent's data directory");
    expect((await policy.refuseFile(path.join(elsewhere, 'machines', 'tributary.json')))?.text).toContain('own conf.d folder');
    expect(await policy.refuseFile(path.join(elsewhere, 'press.csv'))).toBeUndefined();
    // A folder that does not exist yet is judged by the real path of what exists of it.
    expect((await policy.refuseFolder(path.join(elsewhere, 'machines', 'later')))?.text).toContain('own conf.d folder');
  });

  it('refuses deleting from a system folder reached through a link, and allows deleting from an ordinary one', async () => {
    const policy = new ReadPolicy(tempDirectory());
    const elsewhere = tempDirectory('tributary-drop-');
    fs.symlinkSync('/etc', path.join(elsewhere, 'machines'));
    expect((await policy.refuseDelete(path.join(elsewhere, 'machines')))?.text).toContain('(its real path is /etc), a folder of the operating system');
    expect(await policy.refuseDelete(elsewhere)).toBeUndefined();
  });

  it('the preview\'s reader checks again: a link changed after validation lists and reads nothing', async () => {
    const data = tempDirectory();
    fs.mkdirSync(path.join(data, 'conf.d'));
    fs.writeFileSync(path.join(data, 'conf.d', 'tributary.json'), '{"password":"secret"}\n');
    const root = tempDirectory('tributary-drop-');
    const drop = path.join(root, 'drop');
    fs.mkdirSync(drop);
    fs.writeFileSync(path.join(drop, 'tributary.json'), 'harmless\n');
    fs.symlinkSync(drop, path.join(root, 'machines'));
    const folder = localFolder({ root_path: path.join(root, 'machines') }, data);
    expect((await folder.list()).files).toEqual([{ relative: 'tributary.json' }]);
    // Validated and listed; now the link is swapped before the read.
    fs.unlinkSync(path.join(root, 'machines'));
    fs.symlinkSync(path.join(data, 'conf.d'), path.join(root, 'machines'));
    await expect(folder.read('tributary.json', 0, 100)).rejects.toBeInstanceOf(SourceProblem);
    await expect(folder.list()).rejects.toThrow('receivers and preview never read there');
  });
});

describe('SMB shares of this PC', () => {
  it('knows the local folder of an administrative share on Windows only', () => {
    expect(localFolderOfShare('localhost', 'C$\\ProgramData\\Tributary\\conf.d', 'win32')).toBe('C:\\ProgramData\\Tributary\\conf.d');
    expect(localFolderOfShare('127.0.0.1', 'd$', 'win32')).toBe('D:\\');
    expect(localFolderOfShare('localhost', 'data\\line1', 'win32')).toBeUndefined();
    expect(localFolderOfShare('fileserver.plant.example', 'C$\\x', 'win32')).toBeUndefined();
    expect(localFolderOfShare('localhost', 'C$\\x', 'linux')).toBeUndefined();
  });
});
