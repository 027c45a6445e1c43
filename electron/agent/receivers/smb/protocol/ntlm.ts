/**
 * NTLMv2 client messages ([MS-NLMP]) with the session key SMB signing and encryption need. MD4 comes
 * from js-md4: Node's OpenSSL 3 (Node 20, Electron's Node 22) has no MD4 without the legacy provider.
 * No key exchange (no RC4, also legacy): the session key is the NTLMv2 session base key.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const md4 = require('js-md4') as { arrayBuffer(data: Uint8Array): ArrayBuffer };

const SIGNATURE = Buffer.from('NTLMSSP\0', 'latin1');
const FLAGS =
  0x00000001 | // UNICODE
  0x00000004 | // REQUEST_TARGET
  0x00000010 | // SIGN
  0x00000200 | // NTLM
  0x00008000 | // ALWAYS_SIGN
  0x00080000 | // EXTENDED_SESSIONSECURITY
  0x00800000 | // TARGET_INFO
  0x20000000 | // 128
  0x80000000; //  56
const AV_TIMESTAMP = 7;

/** The first message: what the client can do. */
export function negotiateMessage(): Buffer {
  const message = Buffer.alloc(32);
  SIGNATURE.copy(message);
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(FLAGS >>> 0, 12);
  return message;
}

export interface Challenge {
  flags: number;
  serverChallenge: Buffer;
  targetInfo: Buffer;
}

/** The server's challenge; throws on anything that is not one. */
export function parseChallenge(message: Buffer): Challenge {
  if (message.length < 48 || !message.subarray(0, 8).equals(SIGNATURE) || message.readUInt32LE(8) !== 2) throw new Error('the server sent no NTLM challenge');
  const infoLength = message.readUInt16LE(40);
  const infoOffset = message.readUInt32LE(44);
  if (infoOffset + infoLength > message.length) throw new Error('the NTLM challenge is cut short');
  return { flags: message.readUInt32LE(20), serverChallenge: Buffer.from(message.subarray(24, 32)), targetInfo: Buffer.from(message.subarray(infoOffset, infoOffset + infoLength)) };
}

/** The server's timestamp from the target info, if it sent one (then it must be used, and LM left empty). */
function timestampOf(targetInfo: Buffer): Buffer | undefined {
  for (let at = 0; at + 4 <= targetInfo.length; ) {
    const id = targetInfo.readUInt16LE(at);
    const length = targetInfo.readUInt16LE(at + 2);
    if (id === 0) return undefined;
    if (id === AV_TIMESTAMP && length === 8) return Buffer.from(targetInfo.subarray(at + 4, at + 12));
    at += 4 + length;
  }
  return undefined;
}

const utf16 = (text: string) => Buffer.from(text, 'utf16le');
const hmacMd5 = (key: Buffer, ...parts: Buffer[]) => {
  const hmac = crypto.createHmac('md5', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
};

export interface Credentials {
  domain: string;
  username: string;
  password: string;
}

/** The authenticate message and the session key (NTLMv2 session base key) it establishes. */
export function authenticateMessage(challenge: Challenge, credentials: Credentials, clientChallenge = crypto.randomBytes(8), now = Date.now()): { message: Buffer; sessionKey: Buffer } {
  const ntHash = Buffer.from(md4.arrayBuffer(utf16(credentials.password)));
  const responseKey = hmacMd5(ntHash, utf16(credentials.username.toUpperCase() + credentials.domain));
  const serverTime = timestampOf(challenge.targetInfo);
  let time = serverTime;
  if (!time) {
    time = Buffer.alloc(8);
    time.writeBigUInt64LE((BigInt(now) + 11644473600000n) * 10000n);
  }
  const blob = Buffer.concat([Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]), time, clientChallenge, Buffer.alloc(4), challenge.targetInfo, Buffer.alloc(4)]);
  const proof = hmacMd5(responseKey, challenge.serverChallenge, blob);
  const nt = Buffer.concat([proof, blob]);
  const lm = serverTime ? Buffer.alloc(24) : Buffer.concat([hmacMd5(responseKey, challenge.serverChallenge, clientChallenge), clientChallenge]);
  const sessionKey = hmacMd5(responseKey, proof);

  const fields = [lm, nt, utf16(credentials.domain), utf16(credentials.username), Buffer.alloc(0), Buffer.alloc(0)];
  const header = Buffer.alloc(64);
  SIGNATURE.copy(header);
  header.writeUInt32LE(3, 8);
  let offset = header.length;
  fields.forEach((field, i) => {
    header.writeUInt16LE(field.length, 12 + i * 8);
    header.writeUInt16LE(field.length, 14 + i * 8);
    header.writeUInt32LE(offset, 16 + i * 8);
    offset += field.length;
  });
  header.writeUInt32LE((challenge.flags & FLAGS) >>> 0, 60);
  return { message: Buffer.concat([header, ...fields]), sessionKey };
}
