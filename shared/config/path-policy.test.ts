import { describe, expect, it } from 'vitest';
import { isSystemFolder, normalizePath, pathViolations } from './path-policy.js';
import { validateConfiguration } from './validate.js';

const localfile = (root: string, deleteCompleted = false) => ({
  data_receiver: [
    {
      data_receiver_name: 'plant',
      protocol: 'localfile',
      delete_completed: deleteCompleted,
      connections: [{ root_path: root }],
      streams: [{ asset: 'A', stream_type: 'b', file_filter: ['**'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
    },
  ],
  transforms: [],
  data_transmit: [],
});
const csv = (directory: string | undefined) => ({ data_receiver: [], transforms: [], data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', ...(directory === undefined ? {} : { directory }) }] });
const context = { dataDirectory: '/var/lib/tributary', allowWrite: ['/srv/exports'] };
const at = <T extends { json_path: unknown[] }>(violations: T[], path: unknown[]): T[] => violations.filter((v) => JSON.stringify(v.json_path) === JSON.stringify(path));

describe('path policy', () => {
  it('works out paths as text, for POSIX and Windows', () => {
    expect(normalizePath('../../etc/cron.d', '/var/lib/tributary')).toBe('/var/etc/cron.d');
    expect(normalizePath('/a/./b/../c/')).toBe('/a/c');
    expect(normalizePath('/../..')).toBe('/');
    expect(normalizePath('C:\\Data\\..\\Windows\\System32')).toBe('c:/windows/system32');
    expect(normalizePath('out', 'D:\\Tributary')).toBe('d:/tributary/out');
  });

  it('knows the folders of the operating system', () => {
    for (const folder of ['/', '/proc', '/proc/1', '/etc/', '/usr/lib', 'C:\\', 'c:/Windows/Temp', 'D:\\Program Files\\x']) expect(isSystemFolder(folder), folder).toBe(true);
    for (const folder of ['/data/machines', '/var/log/plant', '/home/op/drop', 'D:\\Machines', '/etcetera', 'relative/etc']) expect(isSystemFolder(folder), folder).toBe(false);
  });

  it('warns about reading / or a system folder, and refuses deleting from one', () => {
    const root = validateConfiguration(localfile('/', true)).violations;
    expect(at(root, ['data_receiver', 0, 'connections', 0, 'root_path'])).toEqual([expect.objectContaining({ level: 'warning', description: expect.stringContaining('root of the file system') })]);
    expect(at(root, ['data_receiver', 0, 'delete_completed'])).toContainEqual(expect.objectContaining({ level: 'error', description: expect.stringContaining('Tributary refuses that') }));
    const proc = validateConfiguration(localfile('/proc')).violations;
    expect(at(proc, ['data_receiver', 0, 'connections', 0, 'root_path'])).toEqual([expect.objectContaining({ level: 'warning' })]);
    expect(proc.some((v) => v.level === 'error')).toBe(false);
    expect(at(validateConfiguration(localfile('/data/drop', true)).violations, ['data_receiver', 0, 'connections', 0, 'root_path'])).toEqual([]);
  });

  it('confines csv output to the data directory and the allowed folders, never the agent folders', () => {
    const errorsFor = (directory: string | undefined) => at(validateConfiguration(csv(directory), context).violations, ['data_transmit', 0, 'directory']).filter((v) => v.level === 'error');
    for (const ok of [undefined, 'outbox', 'exports/line1', '/var/lib/tributary/outbox', '/srv/exports/daily']) expect(errorsFor(ok), String(ok)).toEqual([]);
    for (const bad of ['/etc', '../../etc/cron.d', '/tmp/x', '/srv/exports-other']) expect(errorsFor(bad)[0]?.description, bad).toMatch(/outside the agent's data directory .*--allow-write/);
    for (const own of ['conf.d', 'state/', './logs/x', '/var/lib/tributary/components']) expect(errorsFor(own)[0]?.description, own).toMatch(/inside the agent's own/);
  });

  it('judges Windows paths without regard to case', () => {
    const win = { dataDirectory: 'C:\\Users\\op\\AppData\\Roaming\\Tributary', flavour: 'win32' as const };
    const check = (directory: string) => pathViolations(csv(directory) as never, win).map((v) => v.description);
    expect(check('outbox')).toEqual([]);
    expect(check('c:\\users\\OP\\appdata\\roaming\\tributary\\out')).toEqual([]);
    expect(check('C:\\Windows\\Tasks')[0]).toMatch(/outside/);
    expect(check('CONF.D')[0]).toMatch(/own conf.d/);
  });

  it('leaves csv output unjudged where the data directory is unknown (the console)', () => {
    expect(at(validateConfiguration(csv('/etc')).violations, ['data_transmit', 0, 'directory'])).toEqual([]);
  });
});
