/**
 * Bodies of the SMB2 requests the receiver sends and readers of their answers ([MS-SMB2] 2.2). Every
 * reader checks offsets and lengths against what arrived: a short or inconsistent answer is an
 * SMB_PROTOCOL error, never a read past the buffer.
 */
import { CIPHER, DIALECT, SIGNING } from './smb-crypto.js';
import { SmbError } from './smb-status.js';

export const COMMAND = { NEGOTIATE: 0, SESSION_SETUP: 1, LOGOFF: 2, TREE_CONNECT: 3, CREATE: 5, CLOSE: 6, READ: 8, QUERY_DIRECTORY: 0x0e, SET_INFO: 0x11 } as const;

const CAP_LARGE_MTU = 0x4;
const CAP_ENCRYPTION = 0x40;
export const SHARE_ENCRYPT_DATA = 0x8000;
export const SESSION_IS_GUEST = 0x1;
export const SESSION_IS_NULL = 0x2;
export const SESSION_ENCRYPT_DATA = 0x4;

const malformed = (what: string) => new SmbError(`the server's answer to ${what} cannot be read`, 'SMB_PROTOCOL');

/** `length` bytes at protocol offset `offset` (counted from the header start) of a body. */
function slice(body: Buffer, offset: number, length: number, what: string): Buffer {
  const at = offset - 64;
  if (at < 0 || length < 0 || at + length > body.length) throw malformed(what);
  return body.subarray(at, at + length);
}

const need = (body: Buffer, size: number, what: string) => {
  if (body.length < size) throw malformed(what);
};

function context(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}
const pad8 = (length: number) => Buffer.alloc((8 - (length % 8)) % 8);
const u16s = (values: readonly number[]) => {
  const out = Buffer.alloc(2 + values.length * 2);
  out.writeUInt16LE(values.length, 0);
  values.forEach((value, i) => out.writeUInt16LE(value, 2 + i * 2));
  return out;
};

/** Ciphers and signing algorithms offered for 3.1.1, best first. */
const CIPHERS = [CIPHER.AES128GCM, CIPHER.AES128CCM, CIPHER.AES256GCM, CIPHER.AES256CCM];
const SIGNING_ALGORITHMS = [SIGNING.AESGMAC, SIGNING.AESCMAC, SIGNING.HMACSHA256];

export function negotiateRequest(dialects: readonly number[], clientGuid: Buffer, salt: Buffer): Buffer {
  const fixed = Buffer.alloc(36);
  fixed.writeUInt16LE(36, 0);
  fixed.writeUInt16LE(dialects.length, 2);
  fixed.writeUInt16LE(1, 4); // SecurityMode: signing enabled
  fixed.writeUInt32LE(dialects.some((d) => d >= DIALECT.SMB210) ? CAP_LARGE_MTU | CAP_ENCRYPTION : 0, 8);
  clientGuid.copy(fixed, 12);
  const list = Buffer.alloc(dialects.length * 2);
  dialects.forEach((dialect, i) => list.writeUInt16LE(dialect, i * 2));
  if (!dialects.includes(DIALECT.SMB311)) return Buffer.concat([fixed, list]);
  // One hash algorithm (SHA-512 = 1) and the salt.
  const preauth = Buffer.alloc(6 + salt.length);
  preauth.writeUInt16LE(1, 0);
  preauth.writeUInt16LE(salt.length, 2);
  preauth.writeUInt16LE(1, 4);
  salt.copy(preauth, 6);
  const contexts = [context(1, preauth), context(2, u16s(CIPHERS)), context(8, u16s(SIGNING_ALGORITHMS))];
  const start = 64 + fixed.length + list.length;
  fixed.writeUInt32LE(start + pad8(start).length, 28);
  fixed.writeUInt16LE(contexts.length, 32);
  const parts: Buffer[] = [fixed, list, pad8(start)];
  contexts.forEach((c, i) => parts.push(c, i < contexts.length - 1 ? pad8(c.length) : Buffer.alloc(0)));
  return Buffer.concat(parts);
}

export interface Negotiated {
  dialect: number;
  securityMode: number;
  capabilities: number;
  maxReadSize: number;
  /** 0 when the server cannot encrypt. */
  cipher: number;
  signingAlgorithm: number | undefined;
}

export function parseNegotiate(body: Buffer): Negotiated {
  const what = 'negotiate';
  need(body, 64, what);
  const dialect = body.readUInt16LE(4);
  const capabilities = body.readUInt32LE(24);
  let cipher = dialect >= DIALECT.SMB300 && dialect < DIALECT.SMB311 && capabilities & CAP_ENCRYPTION ? CIPHER.AES128CCM : 0;
  let signingAlgorithm: number | undefined;
  if (dialect === DIALECT.SMB311) {
    let at = body.readUInt32LE(60);
    for (let i = 0; i < body.readUInt16LE(6); i++) {
      at += (8 - (at % 8)) % 8;
      const head = slice(body, at, 8, what);
      const data = slice(body, at + 8, head.readUInt16LE(2), what);
      const first = data.length >= 4 && data.readUInt16LE(0) >= 1 ? data.readUInt16LE(2) : undefined;
      if (head.readUInt16LE(0) === 2) cipher = first ?? 0;
      if (head.readUInt16LE(0) === 8) signingAlgorithm = first;
      at += 8 + data.length;
    }
  }
  return { dialect, securityMode: body.readUInt16LE(2), capabilities, maxReadSize: body.readUInt32LE(32), cipher, signingAlgorithm };
}

export function sessionSetupRequest(token: Buffer): Buffer {
  const fixed = Buffer.alloc(24);
  fixed.writeUInt16LE(25, 0);
  fixed.writeUInt8(1, 3); // SecurityMode: signing enabled
  fixed.writeUInt16LE(64 + 24, 12);
  fixed.writeUInt16LE(token.length, 14);
  return Buffer.concat([fixed, token]);
}

export function parseSessionSetup(body: Buffer): { flags: number; token: Buffer } {
  need(body, 8, 'session setup');
  return { flags: body.readUInt16LE(2), token: slice(body, body.readUInt16LE(4), body.readUInt16LE(6), 'session setup') };
}

export function treeConnectRequest(unc: string): Buffer {
  const path = Buffer.from(unc, 'utf16le');
  const fixed = Buffer.alloc(8);
  fixed.writeUInt16LE(9, 0);
  fixed.writeUInt16LE(64 + 8, 4);
  fixed.writeUInt16LE(path.length, 6);
  return Buffer.concat([fixed, path]);
}

export function parseTreeConnect(body: Buffer): { shareFlags: number } {
  need(body, 16, 'tree connect');
  return { shareFlags: body.readUInt32LE(4) };
}

export interface CreateRequest {
  path: string;
  access: number;
  /** CreateOptions: FILE_DIRECTORY_FILE (1), FILE_NON_DIRECTORY_FILE (0x40), or 0. */
  options: number;
}

export function createRequest({ path, access, options }: CreateRequest): Buffer {
  const name = Buffer.from(path, 'utf16le');
  const fixed = Buffer.alloc(56);
  fixed.writeUInt16LE(57, 0);
  fixed.writeUInt32LE(2, 4); // impersonation
  fixed.writeUInt32LE(access, 24);
  fixed.writeUInt32LE(7, 32); // share read, write and delete: the producer keeps writing
  fixed.writeUInt32LE(1, 36); // FILE_OPEN: never creates or truncates
  fixed.writeUInt32LE(options, 40);
  fixed.writeUInt16LE(64 + 56, 44);
  fixed.writeUInt16LE(name.length, 46);
  return Buffer.concat([fixed, name.length > 0 ? name : Buffer.alloc(1)]);
}

export interface OpenFile {
  fileId: Buffer;
  size: number;
  mtimeMs: number;
}

/** FILETIME (100 ns since 1601) to Unix milliseconds. */
const filetimeMs = (buffer: Buffer, at: number) => Number(buffer.readBigUInt64LE(at) / 10000n) - 11644473600000;

export function parseCreate(body: Buffer): OpenFile {
  need(body, 80, 'open');
  return { fileId: Buffer.from(body.subarray(64, 80)), size: Number(body.readBigUInt64LE(48)), mtimeMs: filetimeMs(body, 24) };
}

export function closeRequest(fileId: Buffer): Buffer {
  const body = Buffer.alloc(24);
  body.writeUInt16LE(24, 0);
  fileId.copy(body, 8);
  return body;
}

export function readRequest(fileId: Buffer, offset: number, length: number): Buffer {
  const body = Buffer.alloc(49);
  body.writeUInt16LE(49, 0);
  body.writeUInt8(0x50, 2);
  body.writeUInt32LE(length, 4);
  body.writeBigUInt64LE(BigInt(offset), 8);
  fileId.copy(body, 16);
  return body;
}

export function parseRead(body: Buffer): Buffer {
  need(body, 16, 'read');
  return slice(body, body.readUInt8(2), body.readUInt32LE(4), 'read');
}

/** FileDirectoryInformation of the whole folder ("*"), up to 64 KiB per answer. */
export function queryDirectoryRequest(fileId: Buffer, restart: boolean): Buffer {
  const pattern = Buffer.from('*', 'utf16le');
  const body = Buffer.alloc(32);
  body.writeUInt16LE(33, 0);
  body.writeUInt8(0x01, 2);
  body.writeUInt8(restart ? 1 : 0, 3);
  fileId.copy(body, 8);
  body.writeUInt16LE(64 + 32, 24);
  body.writeUInt16LE(pattern.length, 26);
  body.writeUInt32LE(65536, 28);
  return Buffer.concat([body, pattern]);
}

export interface DirectoryEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

export function parseQueryDirectory(body: Buffer): DirectoryEntry[] {
  need(body, 8, 'list folder');
  const data = slice(body, body.readUInt16LE(2), body.readUInt32LE(4), 'list folder');
  const entries: DirectoryEntry[] = [];
  for (let at = 0; at + 64 <= data.length; ) {
    const next = data.readUInt32LE(at);
    const nameLength = data.readUInt32LE(at + 60);
    if (at + 64 + nameLength > data.length) throw malformed('list folder');
    const name = data.toString('utf16le', at + 64, at + 64 + nameLength);
    if (name !== '.' && name !== '..')
      entries.push({ name, isDirectory: (data.readUInt32LE(at + 56) & 0x10) !== 0, size: Number(data.readBigUInt64LE(at + 40)), mtimeMs: filetimeMs(data, at + 24) });
    if (next === 0) break;
    if (next < 64) throw malformed('list folder');
    at += next;
  }
  return entries;
}

/** FileDispositionInformation: delete when the last handle closes. */
export function deleteOnCloseRequest(fileId: Buffer): Buffer {
  const body = Buffer.alloc(33);
  body.writeUInt16LE(33, 0);
  body.writeUInt8(1, 2); // SMB2_0_INFO_FILE
  body.writeUInt8(13, 3); // FileDispositionInformation
  body.writeUInt32LE(1, 4);
  body.writeUInt16LE(64 + 32, 8);
  fileId.copy(body, 16);
  body.writeUInt8(1, 32);
  return body;
}
