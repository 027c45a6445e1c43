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
