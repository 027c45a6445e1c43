import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fernetDecrypt, fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';

/** The token by the spec's steps, each part made and joined on its own (the reference). */
function specToken(key: string, plaintext: Buffer, now: number, iv: Buffer): string {
  const raw = Buffer.from(key, 'base64url');
  const cipher = crypto.createCipheriv('aes-128-cbc', raw.subarray(16), iv);
  const header = Buffer.alloc(9);
  header[0] = 0x80;
  header.writeBigUInt64BE(BigInt(Math.floor(now / 1000)), 1);
  const signed = Buffer.concat([header, iv, cipher.update(plaintext), cipher.final()]);
  const hmac = crypto.createHmac('sha256', raw.subarray(0, 16)).update(signed).digest();
  return Buffer.concat([signed, hmac]).toString('base64');
}

describe('fernetEncrypt', () => {
  it('makes the token of the spec (URL-safe base64 with its padding) for any body length, and reads it back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.string(), fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes, apiKey, now, ivBytes) => {
        const key = fernetKeyFromApiKey(apiKey);
        const plaintext = Buffer.from(bytes);
        const iv = Buffer.from(ivBytes);
        const token = fernetEncrypt(key, plaintext, now, iv);
        expect(token.toString('latin1')).toBe(specToken(key, plaintext, now, iv).replaceAll('+', '-').replaceAll('/', '_'));
        expect(token.length % 4).toBe(0);
        expect(fernetDecrypt(key, token).equals(plaintext)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('seals a body of upload size (100 KB and more)', () => {
    const key = fernetKeyFromApiKey('plant-key');
    const plaintext = crypto.randomBytes(150_001);
    const token = fernetEncrypt(key, plaintext);
    expect(fernetDecrypt(key, token).equals(plaintext)).toBe(true);
  });
});
