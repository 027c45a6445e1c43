import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../testing/config-fixtures.js';
import { SECRET_MASK } from './schema.js';
import { collectSecrets, maskSecrets, unmaskSecrets } from './secrets.js';

const withSqlPassword = () => {
  const doc = specExampleConfiguration() as any;
  doc.data_receiver.push({ data_receiver_name: 'mes', protocol: 'sql', connections: [{ host: 'db', port: 5432, username: 'u', password: 'db-pass-1', database_type: 'postgresql', database_name: 'mes', ssl: false }], streams: [] });
  return doc;
};

describe('secret masking', () => {
  it('masks every password and API_key, and nothing else', () => {
    const masked = maskSecrets(withSqlPassword());
    expect(masked.data_transmit[0].API_key).toBe(SECRET_MASK);
    expect(masked.data_receiver[1].connections[0].password).toBe(SECRET_MASK);
    expect(masked.data_transmit[0].API_key_ID).toBe('factory_ab12@example.com');
    expect(JSON.stringify(masked)).not.toContain('db-pass-1');
    expect(JSON.stringify(masked)).not.toContain('secret-api-key-123');
  });

  it('keeps the stored secret when the mask is sent back, matched by receiver and transmit name', () => {
    const stored = withSqlPassword();
    const incoming = maskSecrets(withSqlPassword());
    incoming.data_receiver.reverse(); // order changed: matching is by name, not position
    const { config, violations } = unmaskSecrets(incoming, stored) as { config: any; violations: unknown[] };
    expect(violations).toEqual([]);
    expect(config.data_receiver[0].connections[0].password).toBe('db-pass-1');
    expect(config.data_transmit[0].API_key).toBe('secret-api-key-123');
  });

  it('takes a new secret when a real value is sent', () => {
    const incoming = maskSecrets(withSqlPassword());
    incoming.data_transmit[0].API_key = 'rotated-key';
    const { config } = unmaskSecrets(incoming, withSqlPassword()) as { config: any };
    expect(config.data_transmit[0].API_key).toBe('rotated-key');
  });

  it('refuses a mask that has no saved value behind it, at its json_path', () => {
    const incoming = maskSecrets(withSqlPassword());
    incoming.data_transmit[0].transmit_name = 'renamed';
    const { violations } = unmaskSecrets(incoming, withSqlPassword());
    expect(violations).toEqual([expect.objectContaining({ json_path: ['data_transmit', 0, 'API_key'], level: 'error' })]);
  });

  it('collects the secret values for log redaction', () => {
    expect(collectSecrets(withSqlPassword()).sort()).toEqual(['db-pass-1', 'secret-api-key-123']);
  });
});

describe('a masked secret follows its target only', () => {
  const sqlPath = ['data_receiver', 1, 'connections', 0, 'password'];
  const retarget = (change: (doc: any) => void) => {
    const incoming = maskSecrets(withSqlPassword());
    change(incoming);
    return unmaskSecrets(incoming, withSqlPassword()) as { config: any; violations: { json_path: unknown[]; description: string; level: string }[] };
  };

  it.each([
    ['host', (d: any) => (d.data_receiver[1].connections[0].host = 'evil.example.com'), /host "db" → "evil.example.com"/],
    ['port', (d: any) => (d.data_receiver[1].connections[0].port = 15432), /port 5432 → 15432/],
    ['user', (d: any) => (d.data_receiver[1].connections[0].username = 'other'), /username "u" → "other"/],
    ['database', (d: any) => (d.data_receiver[1].connections[0].database_name = 'other'), /database_name "mes" → "other"/],
    // How the password travels is part of its target: a saved one never leaves in clear or to an
    // impostor without being typed again (issue 50).
    ['ssl', (d: any) => (d.data_receiver[1].connections[0].ssl = true), /ssl false → true/],
    ['certificate check', (d: any) => (d.data_receiver[1].connections[0].trust_server_certificate = true), /trust_server_certificate \(none\) → true/],
  ])('refuses the saved password for a changed %s, at the password', (_what, change, words) => {
    const { violations, config } = retarget(change);
    expect(violations).toEqual([expect.objectContaining({ json_path: sqlPath, level: 'error', description: expect.stringMatching(/^Re-enter the password: the server changed/) })]);
    expect(violations[0]!.description).toMatch(words);
    expect(JSON.stringify(config)).not.toContain('db-pass-1');
  });

  it('refuses the saved API key for another account or address, but not for the same address written differently', () => {
    expect(retarget((d) => (d.data_transmit[0].base_url = 'https://attacker.example.com')).violations).toEqual([
      expect.objectContaining({ json_path: ['data_transmit', 0, 'API_key'], description: expect.stringMatching(/^Re-enter the API_key: the cloud account changed \(base_url/) }),
    ]);
    expect(retarget((d) => (d.data_transmit[0].API_key_ID = 'someone-else')).violations).toHaveLength(1);
    const same = retarget((d) => (d.data_transmit[0].base_url = 'HTTPS://127.0.0.1:1/'));
    expect(same.violations).toEqual([]);
    expect(same.config.data_transmit[0].API_key).toBe('secret-api-key-123');
  });

  it('keeps the secret when only other settings change', () => {
    const { violations, config } = retarget((d) => {
      d.data_receiver[1].poll_interval = 30;
      d.data_transmit[0].timeout = 30;
    });
    expect(violations).toEqual([]);
    expect(config.data_receiver[1].connections[0].password).toBe('db-pass-1');
  });

  it('treats SMB port 445 and no port alike, and folders within one share alike', () => {
    const smb = () => ({ data_receiver: [{ data_receiver_name: 'share', protocol: 'smb', connections: [{ host: 'nas', port: 445, username: 'u', password: 'smb-pass', shared_folder: 'machines/line1' }], streams: [], parsers: [] }], data_transmit: [] });
    const moved = maskSecrets(smb()) as any;
    delete moved.data_receiver[0].connections[0].port;
    moved.data_receiver[0].connections[0].shared_folder = 'Machines\\line2';
    expect(unmaskSecrets(moved, smb()).violations).toEqual([]);
    const otherShare = maskSecrets(smb()) as any;
    otherShare.data_receiver[0].connections[0].shared_folder = 'exports/line1';
    expect(unmaskSecrets(otherShare, smb()).violations).toEqual([expect.objectContaining({ description: expect.stringContaining('shared_folder') })]);
  });

  it('binds an SMB password to its domain: another domain needs the password again, the same one in other case does not', () => {
    const smb = () => ({ data_receiver: [{ data_receiver_name: 'share', protocol: 'smb', connections: [{ host: 'nas', domain: 'PLANT', username: 'u', password: 'smb-pass', shared_folder: 'machines' }], streams: [], parsers: [] }], data_transmit: [] });
    const sameDomain = maskSecrets(smb()) as any;
    sameDomain.data_receiver[0].connections[0].domain = 'plant';
    expect(unmaskSecrets(sameDomain, smb()).violations).toEqual([]);
    const otherDomain = maskSecrets(smb()) as any;
    otherDomain.data_receiver[0].connections[0].domain = 'OFFICE';
    const { config, violations } = unmaskSecrets(otherDomain, smb()) as { config: any; violations: { description: string }[] };
    expect(violations).toEqual([expect.objectContaining({ description: expect.stringContaining('domain') })]);
    expect(JSON.stringify(config ?? {})).not.toContain('smb-pass');
  });

  it('matches connections by connection_name, so reordering them keeps each password with its server', () => {
    const two = () => ({
      data_receiver: [{ data_receiver_name: 'mes', protocol: 'sql', connections: [
        { connection_name: 'a', host: 'db-a', port: 5432, username: 'u', password: 'pass-a', database_type: 'postgresql', database_name: 'mes' },
        { connection_name: 'b', host: 'db-b', port: 5432, username: 'u', password: 'pass-b', database_type: 'postgresql', database_name: 'mes' },
      ], streams: [] }],
      data_transmit: [],
    });
    const incoming = maskSecrets(two()) as any;
    incoming.data_receiver[0].connections.reverse();
    const { config, violations } = unmaskSecrets(incoming, two()) as { config: any; violations: unknown[] };
    expect(violations).toEqual([]);
    expect(config.data_receiver[0].connections.map((c: any) => `${c.host}:${c.password}`)).toEqual(['db-b:pass-b', 'db-a:pass-a']);
  });

  it('keeps a secret in a place without a target row only while nothing else there changes', () => {
    const doc = () => ({ data_transmit: [], extra: { endpoint: 'x', password: 'p' } });
    expect(unmaskSecrets(maskSecrets(doc()), doc()).violations).toEqual([]);
    const changed = maskSecrets(doc()) as any;
    changed.extra.endpoint = 'y';
    expect(unmaskSecrets(changed, doc()).violations).toEqual([expect.objectContaining({ json_path: ['extra', 'password'] })]);
  });

  it('refuses the sight_machine_cloud key for a transmit that would send it to another address', () => {
    const cloud = () => ({
      sight_machine_cloud: { base_url: 'https://plant.example.com', api_key: 'cloud-key-1', api_key_id: 'edge@plant' },
      data_receiver: [],
      data_transmit: [{ transmit_name: 'up', transmit_type: 'remotedatapost', filter_stream: ['*'] }],
    });
    // Unchanged, or a setting that does not move the key: kept.
    const same = maskSecrets(cloud()) as any;
    same.data_transmit[0].timeout = 30;
    const kept = unmaskSecrets(same, cloud()) as { config: any; violations: unknown[] };
    expect(kept.violations).toEqual([]);
    expect(kept.config.sight_machine_cloud.api_key).toBe('cloud-key-1');
    // The transmit that inherits the key gets its own base_url: the key would go there.
    const moved = maskSecrets(cloud()) as any;
    moved.data_transmit[0].base_url = 'https://attacker.example.com';
    const refused = unmaskSecrets(moved, cloud()) as { config: any; violations: { json_path: unknown[]; description: string }[] };
    expect(refused.violations).toEqual([expect.objectContaining({ json_path: ['sight_machine_cloud', 'api_key'], description: expect.stringContaining('https://attacker.example.com') })]);
    expect(JSON.stringify(refused.config)).not.toContain('cloud-key-1');
    // A new inheriting transmit to another address too; one with its own key does not count.
    const added = maskSecrets(cloud()) as any;
    added.data_transmit.push({ transmit_name: 'second', base_url: 'https://attacker.example.com', filter_stream: ['*'] });
    expect(unmaskSecrets(added, cloud()).violations).toHaveLength(1);
    const ownKey = maskSecrets(cloud()) as any;
    ownKey.data_transmit.push({ transmit_name: 'second', base_url: 'https://other.example.com', API_key: 'its-own', API_key_ID: 'x', filter_stream: ['*'] });
    expect(unmaskSecrets(ownKey, cloud()).violations).toEqual([]);
  });

  it('copies a "__proto__" key as a plain field, never as a prototype', () => {
    const { config } = unmaskSecrets(JSON.parse('{"data_transmit": [], "__proto__": {"polluted": true}}'), undefined) as { config: any };
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
    expect(config.polluted).toBeUndefined();
    expect(Object.keys(config)).toEqual(['data_transmit', '__proto__']);
  });
});

describe('an MQTT password follows its broker only', () => {
  const broker = { host: 'broker.plant.local', port: 8883, username: 'edge', password: 'mqtt-pass-1', tls: true };
  const mqtt = () => ({
    data_receiver: [{ data_receiver_name: 'machines', protocol: 'mqtt', connections: [{ ...broker }], streams: [] }],
    data_transmit: [{ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], topic: 'plant1/{asset}/{stream_type}', ...broker, password: 'mqtt-pass-2' }],
  });
  const resend = (change: (doc: any) => void) => {
    const incoming = maskSecrets(mqtt()) as any;
    change(incoming);
    return unmaskSecrets(incoming, mqtt()) as { config: any; violations: { json_path: unknown[]; description: string }[] };
  };

  it('masks the password of mqtt receivers and transmits', () => {
    const masked = maskSecrets(mqtt()) as any;
    expect(masked.data_receiver[0].connections[0].password).toBe(SECRET_MASK);
    expect(masked.data_transmit[0].password).toBe(SECRET_MASK);
    expect(JSON.stringify(masked)).not.toMatch(/mqtt-pass/);
    expect(collectSecrets(mqtt()).sort()).toEqual(['mqtt-pass-1', 'mqtt-pass-2']);
  });

  it('keeps both passwords when the topic or timeout change, or the host is written in capitals', () => {
    const { config, violations } = resend((d) => {
      d.data_transmit[0].topic = 'plant2/{asset}';
      d.data_transmit[0].host = 'BROKER.plant.local';
      d.data_receiver[0].connections[0].timeout = 30;
    });
    expect(violations).toEqual([]);
    expect(config.data_receiver[0].connections[0].password).toBe('mqtt-pass-1');
    expect(config.data_transmit[0].password).toBe('mqtt-pass-2');
  });

  it.each([
    ['host', (d: any) => (d.data_transmit[0].host = 'evil.example.com'), /host "broker.plant.local" → "evil.example.com"/],
    ['port', (d: any) => (d.data_transmit[0].port = 1883), /port 8883 → 1883/],
    ['username', (d: any) => (d.data_transmit[0].username = 'admin'), /username "edge" → "admin"/],
    ['tls', (d: any) => (d.data_transmit[0].tls = false), /tls true → false/],
    ['certificate check', (d: any) => (d.data_transmit[0].reject_unauthorized = false), /reject_unauthorized \(none\) → false/],
    ['certificate authority', (d: any) => (d.data_transmit[0].ca_file = '/tmp/attacker-ca.pem'), /ca_file \(none\) → "\/tmp\/attacker-ca.pem"/],
  ])('never sends the transmit\'s saved password to a changed %s', (_what, change, words) => {
    const { config, violations } = resend(change);
    expect(violations).toEqual([expect.objectContaining({ json_path: ['data_transmit', 0, 'password'], level: 'error', description: expect.stringMatching(/^Re-enter the password: the broker changed/) })]);
    expect(violations[0]!.description).toMatch(words);
    expect(JSON.stringify(config)).not.toContain('mqtt-pass-2');
  });

  it('keeps the password when tls is written out with its default, and when ca_file is unchanged', () => {
    const { violations } = resend((d) => {
      d.data_transmit[0].reject_unauthorized = true;
      d.data_receiver[0].connections[0].reject_unauthorized = true;
    });
    expect(violations).toEqual([]);
  });

  it('never sends the receiver\'s saved password without tls or to an unchecked broker', () => {
    for (const change of [(c: any) => (c.tls = false), (c: any) => (c.reject_unauthorized = false)]) {
      const { config, violations } = resend((d) => change(d.data_receiver[0].connections[0]));
      expect(violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'password'], description: expect.stringMatching(/^Re-enter the password/) })]);
      expect(JSON.stringify(config)).not.toContain('mqtt-pass-1');
    }
  });

  it('never sends an OPC UA password with other message security, but keeps it when a server certificate is trusted', () => {
    const opcua = () => ({
      data_receiver: [{ data_receiver_name: 'ua', protocol: 'opcua', connections: [{ host: 'plc', port: 4840, username: 'op', password: 'ua-pass', security_mode: 'SignAndEncrypt' }], streams: [] }],
      data_transmit: [],
    });
    for (const change of [(c: any) => (c.security_mode = 'None'), (c: any) => (c.security_policy = 'Aes128_Sha256_RsaOaep')]) {
      const incoming = maskSecrets(opcua()) as any;
      change(incoming.data_receiver[0].connections[0]);
      const { config, violations } = unmaskSecrets(incoming, opcua()) as { config: any; violations: unknown[] };
      expect(violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'password'] })]);
      expect(JSON.stringify(config)).not.toContain('ua-pass');
    }
    // The trust flow: the thumbprint the marker showed is added, the password stays.
    const trusted = maskSecrets(opcua()) as any;
    trusted.data_receiver[0].connections[0].trusted_server_certificates = ['ab'.repeat(20)];
    expect(unmaskSecrets(trusted, opcua()).violations).toEqual([]);
  });

  it('never sends the receiver\'s saved password to another broker', () => {
    const { config, violations } = resend((d) => (d.data_receiver[0].connections[0].host = '10.0.0.66'));
    expect(violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'password'] })]);
    expect(JSON.stringify(config)).not.toContain('mqtt-pass-1');
  });
});
