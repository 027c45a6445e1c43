import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../shared/testing/config-fixtures.js';
import { tempDirectory } from '../../testing/test-host.js';
import { SystemClock } from '../time/clock.js';
import { ConfigStore, ConfigUnreadableError } from './config-store.js';
import type { SecretCodec } from './secret-codec.js';

/** Stands in for Electron's safeStorage: AES-256-GCM with a key only this test knows. */
function testCodec(): SecretCodec {
  const key = crypto.randomBytes(32);
  return {
    encrypt: (plain) => {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    },
    decrypt: (sealed) => {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}

describe('ConfigStore', () => {
  it('encrypts secrets at rest with a codec (desktop), in the file and in history, and reads them back', () => {
    const dir = tempDirectory();
    const codec = testCodec();
    const store = new ConfigStore(path.join(dir, 'conf.d'), new SystemClock(), 50, codec);
    store.save(specExampleConfiguration());
    const onDisk = fs.readFileSync(path.join(dir, 'conf.d', 'tributary.json'), 'utf8');
    const history = fs.readFileSync(store.history()[0]!, 'utf8');
    for (const text of [onDisk, history]) {
      expect(text).not.toContain('secret-api-key-123');
      expect(text).toMatch(/"API_key": "enc:v1:/);
    }
    expect(store.load()!.config).toEqual(specExampleConfiguration());
  });

  it('explains, instead of crashing, when encrypted secrets are opened without the desktop app', () => {
    const dir = tempDirectory();
    new ConfigStore(path.join(dir, 'conf.d'), new SystemClock(), 50, testCodec()).save(specExampleConfiguration());
    const headless = new ConfigStore(path.join(dir, 'conf.d'), new SystemClock());
    expect(() => headless.load()).toThrow(ConfigUnreadableError);
    expect(() => headless.load()).toThrow(/encrypted by the desktop app/);
  });

  it('keeps secrets plain but the file 0600 without a codec (headless)', () => {
    const dir = tempDirectory();
    const store = new ConfigStore(path.join(dir, 'conf.d'), new SystemClock());
    store.save(specExampleConfiguration());
    const file = path.join(dir, 'conf.d', 'tributary.json');
    expect(fs.readFileSync(file, 'utf8')).toContain('secret-api-key-123');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps at most the configured number of versions', () => {
    const dir = tempDirectory();
    const store = new ConfigStore(path.join(dir, 'conf.d'), new SystemClock(), 3);
    for (let i = 1; i <= 5; i += 1) {
      const config = specExampleConfiguration();
      config.data_receiver[0]!.poll_interval = i;
      store.save(config);
    }
    const kept = store.history().map((f) => JSON.parse(fs.readFileSync(f, 'utf8')).data_receiver[0].poll_interval);
    expect(kept).toEqual([3, 4, 5]);
  });
});
