import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../../shared/testing/config-fixtures.js';
import { tempDirectory } from '../../testing/test-host.js';
import { SystemClock } from '../time/clock.js';
import { listConfigVersions, readConfigVersion } from './config-history.js';
import { ConfigStore } from './config-store.js';
import type { SecretCodec } from './secret-codec.js';

/** AES-256-GCM with a key only this test knows (Electron's safeStorage on the desktop). */
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

describe('config history', () => {
  it('answers a version sealed on disk (desktop) with its secrets masked: neither the secret nor its ciphertext', () => {
    const store = new ConfigStore(path.join(tempDirectory(), 'conf.d'), new SystemClock(), 50, testCodec());
    store.save(specExampleConfiguration(), undefined, 'engineer');
    const found = readConfigVersion(store, 1)!;
    expect(JSON.stringify(found.config)).not.toMatch(/secret-api-key-123|enc:v1:/);
    expect((found.config as ReturnType<typeof specExampleConfiguration>).data_transmit[0]!.API_key).toBe('********');
    expect(found.version).toMatchObject({ revision: 1, saved_by: 'engineer', current: true });
  });

  it('lists only versions still kept: pruned ones and ones removed by hand are not offered', () => {
    const dir = path.join(tempDirectory(), 'conf.d');
    const store = new ConfigStore(dir, new SystemClock(), 3, undefined);
    let previous;
    for (let i = 1; i <= 5; i += 1) previous = store.save({ ...specExampleConfiguration(), transforms: [] }, previous, `user-${i}`);
    expect(listConfigVersions(store, 5).map((v) => [v.revision, v.saved_by])).toEqual([
      [5, 'user-5'],
      [4, 'user-4'],
      [3, 'user-3'],
    ]);
    expect(readConfigVersion(store, 2)).toBeUndefined();
    const oldest = store.savedVersions()[0]!.file;
    fs.rmSync(path.join(dir, 'history', oldest));
    expect(listConfigVersions(store, 5).map((v) => v.revision)).toEqual([5, 4]);
    expect(readConfigVersion(store, 3)).toBeUndefined();
  });

  it('tells the changes of versions saved before codes were kept again from their files, when they make the saved summary', () => {
    const dir = path.join(tempDirectory(), 'conf.d');
    const store = new ConfigStore(dir, new SystemClock(), 50, undefined);
    const first = specExampleConfiguration();
    let previous = store.save(first, undefined, 'engineer');
    const second = { ...first, data_transmit: first.data_transmit.map((t) => ({ ...t, poll_interval: 9 })) };
    previous = store.save(second, previous, 'engineer');
    store.save({ ...second, transforms: [] }, previous, 'engineer');
    const kept = listConfigVersions(store, 3).map((v) => v.changes);
    expect(kept[1]![0]).toMatchObject({ code: expect.stringMatching(/^change\./) });
    // An agent before issue 57 wrote the summary only; the third entry's summary was edited by hand.
    const versionsFile = path.join(dir, 'history', 'versions.jsonl');
    const entries = fs.readFileSync(versionsFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    entries.forEach((entry) => delete entry.changes);
    entries[2]!.summary = 'Changed by hand.';
    fs.writeFileSync(versionsFile, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    const told = listConfigVersions(store, 3);
    expect(told.map((v) => v.revision)).toEqual([3, 2, 1]);
    expect(told[1]!.changes).toEqual(kept[1]);
    expect(readConfigVersion(store, 2)!.version.changes).toEqual(kept[1]);
    // Not the saved summary, or no version before it: none, and the summary stays as written.
    expect(told[0]!.changes).toBeNull();
    expect(told[0]!.summary).toBe('Changed by hand.');
    expect(told[2]!.changes).toBeNull();
  });
});
