/**
 * SMB2/3 message security with node:crypto ([MS-SMB2] 3.1.4): key derivation (SP800-108 counter
 * mode, HMAC-SHA256), signing (HMAC-SHA256 for 2.x, AES-128-CMAC for 3.0/3.0.2, AES-128-CMAC or
 * AES-128-GMAC for 3.1.1) and encryption (AES-128/256 CCM or GCM in the SMB2 transform header).
 * Checked against the published test vectors in smb-crypto.test.ts.
 */
import crypto from 'node:crypto';

export const DIALECT = { SMB202: 0x0202, SMB210: 0x0210, SMB300: 0x0300, SMB302: 0x0302, SMB311: 0x0311 } as const;
export const CIPHER = { AES128CCM: 1, AES128GCM: 2, AES256CCM: 3, AES256GCM: 4 } as const;
export const SIGNING = { HMACSHA256: 0, AESCMAC: 1, AESGMAC: 2 } as const;

export const HEADER_SIZE = 64;
export const TRANSFORM_HEADER_SIZE = 52;
const SIGNATURE_AT = 48;
const FLAGS_AT = 16;
const FLAG_SIGNED = 0x8;

/** SP800-108 KDF in counter mode with HMAC-SHA256, r = 32, as [MS-SMB2] 3.1.4.2 uses it. */
export function deriveKey(sessionKey: Buffer, label: string, context: Buffer, bits = 128): Buffer {
  const out: Buffer[] = [];
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bits);
  for (let i = 1; out.length * 32 < bits / 8; i++) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(i);
    // Label includes its terminating NUL; one more zero byte separates it from the context.
    out.push(crypto.createHmac('sha256', sessionKey).update(counter).update(label).update('\0').update('\0').update(context).update(length).digest());
  }
  return Buffer.concat(out).subarray(0, bits / 8);
}

/** AES-CMAC (RFC 4493) over `message` with a 128-bit key. */
export function aesCmac(key: Buffer, message: Buffer): Buffer {
  const encrypt = (block: Buffer) => {
    const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(block), cipher.final()]);
  };
  const double = (block: Buffer) => {
    const out = Buffer.alloc(16);
    for (let i = 0; i < 16; i++) out[i] = ((block[i]! << 1) | (i < 15 ? block[i + 1]! >> 7 : 0)) & 0xff;
    if (block[0]! & 0x80) out[15]! ^= 0x87;
    return out;
  };
  const k1 = double(encrypt(Buffer.alloc(16)));
  const k2 = double(k1);
  const blocks = Math.max(1, Math.ceil(message.length / 16));
  const complete = message.length > 0 && message.length % 16 === 0;
  const last = Buffer.alloc(16);
  message.copy(last, 0, (blocks - 1) * 16);
  if (!complete) last[message.length - (blocks - 1) * 16] = 0x80;
  const subkey = complete ? k1 : k2;
  for (let i = 0; i < 16; i++) last[i]! ^= subkey[i]!;
  // CBC-MAC over all blocks with a zero IV: the last ciphertext block is the MAC.
  const cbc = crypto.createCipheriv('aes-128-cbc', key, Buffer.alloc(16)).setAutoPadding(false);
  cbc.update(message.subarray(0, (blocks - 1) * 16));
  return cbc.update(last).subarray(0, 16);
}

/** What signs and checks messages of one session. */
export interface SigningState {
  algorithm: number;
  key: Buffer;
}

/** The session's signing algorithm and key for a dialect ([MS-SMB2] 3.2.5.3.1). */
export function signingState(dialect: number, sessionKey: Buffer, preauthHash: Buffer | undefined, algorithm?: number): SigningState {
  if (dialect < DIALECT.SMB300) return { algorithm: SIGNING.HMACSHA256, key: sessionKey };
  if (dialect === DIALECT.SMB311) return { algorithm: algorithm ?? SIGNING.AESCMAC, key: deriveKey(sessionKey, 'SMBSigningKey', preauthHash!) };
  return { algorithm: SIGNING.AESCMAC, key: deriveKey(sessionKey, 'SMB2AESCMAC', Buffer.from('SmbSign\0')) };
}

/**
 * The signature of a whole message (header + body), computed with the signature field zeroed. The
 * field is zeroed in place and put back: no copy of a 1 MiB read answer per check.
 */
export function signature(state: SigningState, message: Buffer, isResponse: boolean): Buffer {
  const field = Buffer.from(message.subarray(SIGNATURE_AT, SIGNATURE_AT + 16));
  message.fill(0, SIGNATURE_AT, SIGNATURE_AT + 16);
  try {
    if (state.algorithm === SIGNING.HMACSHA256) return crypto.createHmac('sha256', state.key).update(message).digest().subarray(0, 16);
    if (state.algorithm === SIGNING.AESCMAC) return aesCmac(state.key, message);
    // AES-GMAC: AES-GCM with nothing to encrypt; the nonce is the message id and the sender's role.
    const nonce = Buffer.alloc(12);
    message.copy(nonce, 0, 24, 32);
    const command = message.readUInt16LE(12);
    nonce.writeUInt32LE((isResponse ? 1 : 0) | (command === 0x000c ? 2 : 0), 8);
    const gcm = crypto.createCipheriv('aes-128-gcm', state.key, nonce);
    gcm.setAAD(message);
    gcm.final();
    return gcm.getAuthTag();
  } finally {
    field.copy(message, SIGNATURE_AT);
  }
}

/** Sets the SIGNED flag and writes the signature into the message (in place). */
export function sign(state: SigningState, message: Buffer): void {
  message.writeUInt32LE(message.readUInt32LE(FLAGS_AT) | FLAG_SIGNED, FLAGS_AT);
  signature(state, message, false).copy(message, SIGNATURE_AT);
}

/** Whether a response's signature is right. */
export function verify(state: SigningState, message: Buffer): boolean {
  const expected = signature(state, message, true);
  return crypto.timingSafeEqual(expected, message.subarray(SIGNATURE_AT, SIGNATURE_AT + 16));
}

export function isSigned(message: Buffer): boolean {
  return (message.readUInt32LE(FLAGS_AT) & FLAG_SIGNED) !== 0;
}

/** The keys of an encrypting session: client to server and back ([MS-SMB2] 3.2.5.3.1). */
export interface CipherState {
  cipher: number;
  encryptionKey: Buffer;
  decryptionKey: Buffer;
}

export function cipherState(dialect: number, cipher: number, sessionKey: Buffer, preauthHash: Buffer | undefined): CipherState {
  const bits = cipher === CIPHER.AES256CCM || cipher === CIPHER.AES256GCM ? 256 : 128;
  if (dialect === DIALECT.SMB311)
    return { cipher, encryptionKey: deriveKey(sessionKey, 'SMBC2SCipherKey', preauthHash!, bits), decryptionKey: deriveKey(sessionKey, 'SMBS2CCipherKey', preauthHash!, bits) };
  return { cipher, encryptionKey: deriveKey(sessionKey, 'SMB2AESCCM', Buffer.from('ServerIn \0')), decryptionKey: deriveKey(sessionKey, 'SMB2AESCCM', Buffer.from('ServerOut\0')) };
}

const isGcm = (cipher: number) => cipher === CIPHER.AES128GCM || cipher === CIPHER.AES256GCM;
const algorithmOf = (state: CipherState) => `aes-${state.encryptionKey.length * 8}-${isGcm(state.cipher) ? 'gcm' : 'ccm'}` as 'aes-128-gcm';
const nonceLength = (cipher: number) => (isGcm(cipher) ? 12 : 11);

/**
 * The transform header and ciphertext of one message. `nonce`: 11 (CCM) or 12 (GCM) bytes that
 * must never repeat under the key.
 */
export function encrypt(state: CipherState, message: Buffer, sessionId: Buffer, nonce: Buffer): Buffer {
  const header = Buffer.alloc(TRANSFORM_HEADER_SIZE);
  header.write('\xfdSMB', 0, 'latin1');
  nonce.copy(header, 20, 0, nonceLength(state.cipher));
  header.writeUInt32LE(message.length, 36);
  header.writeUInt16LE(1, 42); // Flags: encrypted
  sessionId.copy(header, 44);
  const cipher = crypto.createCipheriv(algorithmOf(state), state.encryptionKey, header.subarray(20, 20 + nonceLength(state.cipher)), { authTagLength: 16 });
  cipher.setAAD(header.subarray(20), { plaintextLength: message.length });
  const body = Buffer.concat([cipher.update(message), cipher.final()]);
  cipher.getAuthTag().copy(header, 4);
  return Buffer.concat([header, body]);
}

/** The message inside a transform header; throws when it was altered or not meant for this key. */
export function decrypt(state: CipherState, packet: Buffer): Buffer {
  if (packet.length < TRANSFORM_HEADER_SIZE) throw new Error('encrypted message too short');
  const size = packet.readUInt32LE(36);
  if (size !== packet.length - TRANSFORM_HEADER_SIZE) throw new Error('encrypted message has the wrong length');
  const decipher = crypto.createDecipheriv(algorithmOf(state), state.decryptionKey, packet.subarray(20, 20 + nonceLength(state.cipher)), {
    authTagLength: 16,
  });
  decipher.setAuthTag(packet.subarray(4, 20));
  decipher.setAAD(packet.subarray(20, TRANSFORM_HEADER_SIZE), { plaintextLength: size });
  const message = decipher.update(packet.subarray(TRANSFORM_HEADER_SIZE));
  decipher.final(); // throws when the tag does not match; AES-GCM/CCM add no bytes here
  return message;
}

/** Preauth integrity: H(i) = SHA-512(H(i-1) || message), starting from 64 zero bytes. */
export function preauthUpdate(hash: Buffer, message: Buffer): Buffer {
  return crypto.createHash('sha512').update(hash).update(message).digest();
}
