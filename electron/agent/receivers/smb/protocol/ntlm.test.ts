/** NTLMv2 against the example of [MS-NLMP] 4.2.4 (user "User", domain "Domain", password "Password"). */
import { describe, expect, it } from 'vitest';
import { authenticateMessage, negotiateMessage, parseChallenge } from './ntlm.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const targetInfo = hex('02000c0044006f006d00610069006e00 01000c005300650072007600650072000000 0000');

function challengeMessage(info: Buffer): Buffer {
  const header = Buffer.alloc(48);
  header.write('NTLMSSP\0', 'latin1');
  header.writeUInt32LE(2, 8);
  header.writeUInt32LE(0xe28a8233, 20);
  hex('0123456789abcdef').copy(header, 24);
  header.writeUInt16LE(info.length, 40);
  header.writeUInt16LE(info.length, 42);
  header.writeUInt32LE(48, 44);
  return Buffer.concat([header, info]);
}

describe('NTLMv2', () => {
  it('computes the NTProofStr, LMv2 response and session base key of the specification', () => {
    const challenge = parseChallenge(challengeMessage(targetInfo));
    // FILETIME 0, as in the example: the Unix epoch is 11644473600 s after 1601.
    const { message, sessionKey } = authenticateMessage(challenge, { domain: 'Domain', username: 'User', password: 'Password' }, hex('aaaaaaaaaaaaaaaa'), -11644473600000);
    expect(sessionKey.toString('hex')).toBe('8de40ccadbc14a82f15cb0ad0de95ca3');
    const field = (i: number) => message.subarray(message.readUInt32LE(16 + i * 8), message.readUInt32LE(16 + i * 8) + message.readUInt16LE(12 + i * 8));
    expect(field(0).toString('hex')).toBe('86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa');
    expect(field(1).subarray(0, 16).toString('hex')).toBe('68cd0ab851e51c96aabc927bebef6a1c');
    expect(field(2).toString('utf16le')).toBe('Domain');
    expect(field(3).toString('utf16le')).toBe('User');
  });

  it('leaves LM empty and uses the server time when the challenge carries a timestamp', () => {
    const withTime = Buffer.concat([targetInfo.subarray(0, targetInfo.length - 4), hex('07000800 0102030405060708'), hex('00000000')]);
    const { message } = authenticateMessage(parseChallenge(challengeMessage(withTime)), { domain: '', username: 'u', password: 'p' });
    const lm = message.subarray(message.readUInt32LE(16), message.readUInt32LE(16) + 24);
    expect(lm.equals(Buffer.alloc(24))).toBe(true);
    const nt = message.subarray(message.readUInt32LE(24), message.readUInt32LE(24) + message.readUInt16LE(20));
    expect(nt.subarray(24, 32).toString('hex')).toBe('0102030405060708');
  });

  it('refuses what is not a challenge', () => {
    expect(() => parseChallenge(negotiateMessage())).toThrow(/no NTLM challenge/);
    const cut = challengeMessage(targetInfo).subarray(0, 60);
    expect(() => parseChallenge(cut)).toThrow(/cut short/);
  });
});
