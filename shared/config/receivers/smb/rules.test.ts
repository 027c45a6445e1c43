import { describe, expect, it } from 'vitest';
import { parseSharedFolder, smbConnectionViolations, smbCredentials } from './rules.js';

const connection = (change: Record<string, unknown> = {}) => ({ host: 'fileserver01', port: 445, username: 'reader', password: 'secret', shared_folder: 'machines/line1', ...change });
const violations = (change: Record<string, unknown>) => smbConnectionViolations([connection(change)], ['data_receiver', 0], (v) => v.startsWith('<fill in: '));

describe('smb connection rules', () => {
  it.each([
    ['machines', 'machines', []],
    ['machines/line1', 'machines', ['line1']],
    ['machines\\line1\\press', 'machines', ['line1', 'press']],
    ['/machines//line1/', 'machines', ['line1']],
  ])('reads shared_folder %s as share and folder', (value, share, folder) => {
    expect(parseSharedFolder(value)).toEqual({ share, folder });
  });

  it('takes the domain from DOMAIN\\user when the domain field is empty', () => {
    expect(smbCredentials({ username: 'PLANT\\reader', domain: '' })).toEqual({ domain: 'PLANT', username: 'reader' });
    expect(smbCredentials({ username: 'reader', domain: 'PLANT' })).toEqual({ domain: 'PLANT', username: 'reader' });
    expect(smbCredentials({ username: 'reader@plant.local' })).toEqual({ domain: '', username: 'reader@plant.local' });
  });

  it('accepts a plain connection and template prompts', () => {
    expect(violations({})).toEqual([]);
    expect(violations({ host: '<fill in: host>', shared_folder: '<fill in: share>' })).toEqual([]);
  });

  it.each([
    [{ shared_folder: '\\\\fileserver01\\machines' }, 'shared_folder', /full network path/],
    [{ shared_folder: '/' }, 'shared_folder', /Name the share/],
    [{ shared_folder: 'mach:ines/x' }, 'shared_folder', /cannot be a share name/],
    [{ shared_folder: 'machines/../other' }, 'shared_folder', /"\.\."/],
    [{ host: 'fileserver01:4445' }, 'host', /port field/],
    [{ host: 'smb://fileserver01' }, 'host', /not a server name/],
    [{ username: 'PLANT\\reader', domain: 'OFFICE' }, 'username', /keep one/],
  ])('refuses %j', (change, field, message) => {
    const found = violations(change);
    expect(found).toHaveLength(1);
    expect(found[0]!.json_path).toEqual(['data_receiver', 0, 'connections', 0, field]);
    expect(found[0]!.description).toMatch(message);
  });
});
