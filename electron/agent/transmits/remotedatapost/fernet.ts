import crypto from 'node:crypto';

/**
 * Fernet (https://github.com/fernet/spec): AES-128-CBC with PKCS7 padding, authenticated with
 * HMAC-SHA256, as a URL-safe base64 token: 0x80 | timestamp (8 bytes, big endian) | IV (16) |
 * ciphertext | HMAC (32). Node's crypto does the work; Python's cryptography.fernet reads the result
 * (tested).
 */
const VERSION = 0x80;

/** The Fernet key of the RDP2 upload: urlsafe-base64(SHA-256(API_key)). */
export function fernetKeyFromApiKey(apiKey: string): string {
  return crypto.createHash('sha256').update(apiKey, 'utf8').digest('base64url') + '=';
}

function splitKey(key: string): { signing: Buffer; encryption: Buffer } {
  const raw = Buffer.from(key, 'base64url');
  if (raw.length !== 32) throw new Error('A Fernet key is 32 bytes, URL-safe base64');
  return { signing: raw.subarray(0, 16), encryption: raw.subarray(16) };
}

export function fernetEncrypt(key: string, plaintext: Buffer, now = Date.now(), iv = crypto.randomBytes(16)): Buffer {
  const { signing, encryption } = splitKey(key);
  const cipher = crypto.createCipheriv('aes-128-cbc', encryption, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const header = Buffer.alloc(9);
  header[0] = VERSION;
  header.writeBigUInt64BE(BigInt(Math.floor(now / 1000)), 1);
  const signed = Buffer.concat([header, iv, ciphertext]);
  const hmac = crypto.createHmac('sha256', signing).update(signed).digest();
  // Fernet tokens are padded URL-safe base64 (Node's base64url omits the padding).
  const text = Buffer.concat([signed, hmac]).toString('base64url');
  return Buffer.from(text + '='.repeat((4 - (text.length % 4)) % 4), 'ascii');
}

export function fernetDecrypt(key: string, token: Buffer | string): Buffer {
  const { signing, encryption } = splitKey(key);
  const raw = Buffer.from(typeof token === 'string' ? token : token.toString('ascii'), 'base64url');
  if (raw.length < 9 + 16 + 16 + 32 || raw[0] !== VERSION) throw new Error('not a Fernet token');
  const signed = raw.subarray(0, raw.length - 32);
  const expected = crypto.createHmac('sha256', signing).update(signed).digest();
  if (!crypto.timingSafeEqual(expected, raw.subarray(raw.length - 32))) throw new Error('Fernet token signature does not match: wrong key');
  const iv = raw.subarray(9, 25);
  const decipher = crypto.createDecipheriv('aes-128-cbc', encryption, iv);
  return Buffer.concat([decipher.update(raw.subarray(25, raw.length - 32)), decipher.final()]);
}
