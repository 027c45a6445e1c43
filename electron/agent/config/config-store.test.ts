import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { specExampleConfiguration } from '../../../shared/testing/config-fixtures.js';
import { tempDirectory } from '../../testing/test-host.js';
import { type Clock, SystemClock } from '../time/clock.js';
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

/** A clock a minute ahead of the file system's: every file already looks settled (not just written). */
const minuteAhead: Clock = { nowMicros: () => BigInt(Date.now() + 60_000) * 1000n };

describe('ConfigStore.load between changes (the console polls status and streams every few seconds)', () => {
  afterEach(() => vi.restoreAllMocks());

  /** Counts reads of the configuration file itself. */
  function countReads(file: string) {
    const readFileSync = vi.spyOn(fs, 'readFileSync');
    return () => readFileSync.mock.calls.filter(([read]) => read === file).length;
  }

  it('does not read the file again while it is unchanged, and gives the same document', () => {
    const directory = path.join(tempDirectory(), 'conf.d');
    new ConfigStore(directory, new SystemClock()).save(specExampleConfiguration());
    const store = new ConfigStore(directory, minuteAhead);
    const reads = countReads(path.join(directory, 'tributary.json'));
    const first = store.load();
    const again = [store.load(), store.load(), store.load()];
    expect(reads()).toBe(1);
    for (const stored of again) expect(stored).toBe(first);
    expect(first!.config).toEqual(specExampleConfiguration());
    // Shared between calls: frozen, so that no caller changes what the next one gets.
    expect(Object.isFrozen((first!.config as { data_receiver: object[] }).data_receiver[0])).toBe(true);
  });

  it('sees a file edited by hand at once, and a new save, and a removed file', () => {
    const directory = path.join(tempDirectory(), 'conf.d');
    const store = new ConfigStore(directory, minuteAhead);
    const file = path.join(directory, 'tributary.json');
    store.save(specExampleConfiguration());
    const reads = countReads(file);
    const saved = store.load()!;
    expect(store.load()).toBe(saved);

    // Edited in place (same inode), as an editor or a script does.
    const edited = specExampleConfiguration();
    edited.data_receiver[0]!.data_receiver_name = 'edited_by_hand';
    fs.writeFileSync(file, JSON.stringify(edited));
    const afterEdit = store.load()!;
    expect((afterEdit.config as typeof edited).data_receiver[0]!.data_receiver_name).toBe('edited_by_hand');
    // Changed without the counter: one revision more, so that a client holding the old one is refused.
    expect(afterEdit.revision).toBe(saved.revision + 1);

    const next = specExampleConfiguration();
    next.data_receiver[0]!.poll_interval = 7;
    const stored = store.save(next, afterEdit);
    expect(store.load()).toMatchObject({ config: next, revision: stored.revision });
    expect(reads()).toBe(3);

    fs.rmSync(file);
    expect(store.load()).toBeUndefined();
  });

  it('sees an edit in place of the same size within one time stamp tick (2 s, as on FAT): a file changed a moment ago is read again', () => {
    // File times rounded down to 2 s: the edit below gets the same times as the save before it.
    const statSync = fs.statSync;
    const TICK = 2_000_000_000n;
    vi.spyOn(fs, 'statSync').mockImplementation(((file: fs.PathLike, options?: fs.StatSyncOptions) => {
      const stat = statSync(file, options);
      if (!(stat instanceof fs.Stats) && stat) return { ...stat, mtimeNs: (stat.mtimeNs / TICK) * TICK, ctimeNs: (stat.ctimeNs / TICK) * TICK };
      return stat;
    }) as typeof fs.statSync);
    const directory = path.join(tempDirectory(), 'conf.d');
    const store = new ConfigStore(directory, new SystemClock());
    const file = path.join(directory, 'tributary.json');
    store.save(specExampleConfiguration());
    expect(store.load()!.config).toEqual(specExampleConfiguration());
    // The same size and the same inode.
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"poll_interval": 5', '"poll_interval": 9'));
    expect(fs.statSync(file).size).toBe(Buffer.byteLength(text));
    expect((store.load()!.config as { data_receiver: { poll_interval: number }[] }).data_receiver[0]!.poll_interval).toBe(9);
  });
});
