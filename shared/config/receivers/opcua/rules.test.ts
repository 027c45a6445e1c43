import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../testing/config-fixtures.js';
import { isNodeId } from './rules.js';
import { validateConfiguration } from '../../validate.js';

function withOpcua(connection: Record<string, unknown>, tags: { name: string; exportname: string }[] = [{ name: 'ns=2;s=Line1.Temp', exportname: 'temperature' }], extra: Record<string, unknown> = {}) {
  const doc = structuredClone(specExampleConfiguration()) as Record<string, any>;
  doc.data_receiver.push({ data_receiver_name: 'plc', protocol: 'opcua', connections: [{ host: 'plc', port: 4840, ...connection }], streams: [{ asset: 'Press_1', stream_type: 'tags', opcua_tags: tags }], ...extra });
  return validateConfiguration(doc).violations.filter((v) => v.json_path[1] === 1);
}

describe('opcua rules', () => {
  it('accepts a plain and a secure connection', () => {
    expect(withOpcua({})).toEqual([]);
    expect(withOpcua({ security_mode: 'SignAndEncrypt', security_policy: 'Basic256Sha256', username: 'op', password: 'x', trusted_server_certificates: ['AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01'] })).toEqual([]);
  });

  it.each(['ns=2;s=Line1.Temp', 'i=2258', 'ns=0;i=2258', 'ns=3;g=72962B91-FA75-4AE6-8D28-B404DC7DAF63', 'ns=4;b=M/RbKBsRVkePCePcx24oRA==', 's=Plain'])('knows %s as a node id', (id) => {
    expect(isNodeId(id)).toBe(true);
  });

  it.each(['Line1.Temp', 'ns=x;s=A', 'ns=2;i=abc', 'ns=2;', ''])('refuses %j as a node id', (id) => {
    expect(isNodeId(id)).toBe(false);
  });

  it('accepts history_backfill and warns about a backfill window without it', () => {
    expect(withOpcua({}, undefined, { history_backfill: true, history_backfill_max_hours: 48 })).toEqual([]);
    const [violation] = withOpcua({}, undefined, { history_backfill_max_hours: 48 });
    expect(violation).toMatchObject({ level: 'warning', json_path: ['data_receiver', 1, 'history_backfill_max_hours'] });
    expect(withOpcua({}, undefined, { history_backfill: 'yes' })[0]).toMatchObject({ level: 'error', json_path: ['data_receiver', 1, 'history_backfill'] });
  });

  it('reports a bad node id at the tag name', () => {
    const [violation] = withOpcua({}, [{ name: 'Line1.Temp', exportname: 'temperature' }]);
    expect(violation).toMatchObject({ level: 'error', json_path: ['data_receiver', 1, 'streams', 0, 'opcua_tags', 0, 'name'] });
  });

  it('refuses column names that clash with status columns or record columns', () => {
    const violations = withOpcua({}, [
      { name: 'ns=2;s=A', exportname: 'temp' },
      { name: 'ns=2;s=B', exportname: 'temp_status' },
      { name: 'ns=2;s=C', exportname: 'timestamp' },
    ]);
    expect(violations.map((v) => v.json_path.slice(-2)).sort()).toEqual([[1, 'exportname'], [2, 'exportname']]);
    expect(violations.find((v) => v.json_path[5] === 1)!.description).toContain('status column of tag 1');
  });

  it('warns about the same node twice and a second connection', () => {
    const doc = withOpcua({}, [{ name: 'ns=2;s=A', exportname: 'a' }, { name: 'ns=2;s=A', exportname: 'b' }], { connections: [{ host: 'a', port: 4840 }, { host: 'b', port: 4840 }] });
    expect(doc.map((v) => [v.level, v.json_path.slice(2)])).toEqual(
      expect.arrayContaining([
        ['warning', ['streams', 0, 'opcua_tags', 1, 'name']],
        ['warning', ['connections', 1]],
      ]),
    );
    expect(doc).toHaveLength(2);
  });

  it('checks security settings that do not fit together', () => {
    expect(withOpcua({ security_mode: 'Sign', security_policy: 'None' })[0]!.json_path.slice(-1)).toEqual(['security_policy']);
    expect(withOpcua({ security_policy: 'Basic256Sha256' })[0]!.json_path.slice(-1)).toEqual(['security_mode']);
    expect(withOpcua({ username: 'op' }).map((v) => v.json_path.slice(-1)[0])).toContain('password');
    const unprotected = withOpcua({ username: 'op', password: 'x' });
    expect(unprotected).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 1, 'connections', 0, 'security_mode'] })]);
    expect(withOpcua({ security_mode: 'SignAndEncrypt', trusted_server_certificates: ['not-a-thumbprint'] })[0]!.json_path.slice(-2)).toEqual(['trusted_server_certificates', 0]);
    expect(withOpcua({ trust_on_first_use: true })[0]).toMatchObject({ level: 'warning' });
  });
});
