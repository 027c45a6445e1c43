/**
 * A small SMB 2.0.2 server on 127.0.0.1 for tests of what a hostile or broken file server can send:
 * it logs any user in (NTLMv2, the session key computed as a real server does, so that the client
 * signs and checks signatures as against Samba), opens any share and folder, and answers every
 * QUERY_DIRECTORY with what the test's `listing` says: entries (forever, if it likes), empty rounds,
 * an end, or a frame far larger than any answer may be. Messages are built with the client's own
 * constants and signed with its own code (protocol/smb-crypto.ts); the layouts are [MS-SMB2] 2.2.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import net from 'node:net';
import { DIALECT, HEADER_SIZE, type SigningState, sign, signingState } from '../agent/receivers/smb/protocol/smb-crypto.js';
import { COMMAND } from '../agent/receivers/smb/protocol/smb-messages.js';
import { STATUS } from '../agent/receivers/smb/protocol/smb-status.js';

const require = createRequire(import.meta.url);
const md4 = require('js-md4') as { arrayBuffer(data: Uint8Array): ArrayBuffer };

/** What one answer to QUERY_DIRECTORY holds. */
export type ListingAnswer =
  /** Files of these names (FileDirectoryInformation), STATUS_SUCCESS; a name ending in "\\" is a folder. */
  | { names: string[] }
  /** STATUS_NO_MORE_FILES: the listing is over. */
  | 'end'
  /** A frame header announcing this many bytes, then 1 MiB of them and nothing more. */
  | { frameBytes: number };

export interface FakeSmbOptions {
  username: string;
  password: string;
  /** The answer to the `round`-th QUERY_DIRECTORY (0 first) of a folder opened (its share path, "\\" separated). */
  listing: (round: number, folder: string) => ListingAnswer;
  /** Files that can be read, by share path ("\\" separated); every other path opens as a folder. */
  files?: Record<string, string>;
}

export interface FakeSmbServer {
  port: number;
  /** QUERY_DIRECTORY requests answered so far, over all connections. */
  readonly rounds: number;
  /** Connections that are still open. */
  readonly open: number;
  close(): Promise<void>;
}

const utf16 = (text: string) => Buffer.from(text, 'utf16le');
const hmacMd5 = (key: Buffer, ...parts: Buffer[]) => parts.reduce((hmac, part) => hmac.update(part), crypto.createHmac('md5', key)).digest();

/** NTLM CHALLENGE with an empty target info (no timestamp: the client then sends its own time). */
function ntlmChallenge(): Buffer {
  const message = Buffer.alloc(60);
  message.write('NTLMSSP\0', 0, 'latin1');
  message.writeUInt32LE(2, 8);
  message.writeUInt32LE(0x56, 16); // target name: empty, at the end
  message.writeUInt32LE(0xe2888215, 20); // the flags a Windows server sends
  crypto.randomBytes(8).copy(message, 24);
  message.writeUInt16LE(4, 40); // target info: MsvAvEOL only
  message.writeUInt16LE(4, 42);
  message.writeUInt32LE(56, 44);
  return message;
}

/** The NTLMv2 session base key of an AUTHENTICATE message, as the server derives it from the password. */
function sessionKeyOf(authenticate: Buffer, options: FakeSmbOptions): Buffer {
  const field = (at: number) => authenticate.subarray(authenticate.readUInt32LE(at + 4), authenticate.readUInt32LE(at + 4) + authenticate.readUInt16LE(at));
  const domain = field(28).toString('utf16le');
  const ntHash = Buffer.from(md4.arrayBuffer(utf16(options.password)));
  const responseKey = hmacMd5(ntHash, utf16(options.username.toUpperCase() + domain));
  return hmacMd5(responseKey, field(20).subarray(0, 16));
}

/** Encoded listings by their names array: a test that answers with the same big list encodes it once. */
const encoded = new WeakMap<string[], Buffer>();

function directoryEntries(names: string[], folder: string, files: Record<string, string>): Buffer {
  const known = encoded.get(names);
  if (known) return known;
  const entries = names.map((name, i) => {
    const isFolder = name.endsWith('\\');
    if (isFolder) name = name.slice(0, -1);
    const encoded = utf16(name);
    const entry = Buffer.alloc(64 + encoded.length + ((8 - ((64 + encoded.length) % 8)) % 8));
    if (i < names.length - 1) entry.writeUInt32LE(entry.length, 0);
    entry.writeBigUInt64LE(133_000_000_000_000_000n, 24); // LastWriteTime: 2022
    entry.writeBigUInt64LE(BigInt(Buffer.byteLength(files[folder ? `${folder}\\${name}` : name] ?? '0123456789')), 40); // EndOfFile
    entry.writeUInt32LE(isFolder ? 0x10 : 0x20, 56); // FILE_ATTRIBUTE_DIRECTORY, or _ARCHIVE: a file
    entry.writeUInt32LE(encoded.length, 60);
    encoded.copy(entry, 64);
    return entry;
  });
  const all = Buffer.concat(entries);
  encoded.set(names, all);
  return all;
}

/** SESSION_SETUP answer: flags, then the security token at offset 64 + 8. */
function sessionSetup(token: Buffer): Buffer {
  const body = Buffer.alloc(8 + token.length);
  body.writeUInt16LE(9, 0);
  body.writeUInt16LE(HEADER_SIZE + 8, 4);
  body.writeUInt16LE(token.length, 6);
  token.copy(body, 8);
  return body;
}

/** QUERY_DIRECTORY answer: the entries at offset 64 + 8. */
function queryDirectory(entries: Buffer): Buffer {
  const body = Buffer.alloc(8 + entries.length);
  body.writeUInt16LE(9, 0);
  body.writeUInt16LE(HEADER_SIZE + 8, 2);
  body.writeUInt32LE(entries.length, 4);
  entries.copy(body, 8);
  return body;
}

export async function startFakeSmbServer(options: FakeSmbOptions): Promise<FakeSmbServer> {
  let rounds = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let signing: SigningState | undefined;
    const sessionId = crypto.randomBytes(8);
    /** Open handles: the path and how many listing rounds it has answered. */
    const handles = new Map<string, { path: string; round: number }>();
    let pending = Buffer.alloc(0);

    const answer = (request: Buffer, status: number, body: Buffer, sessionSetup = false) => {
      const message = Buffer.alloc(HEADER_SIZE + body.length);
      request.copy(message, 0, 0, HEADER_SIZE);
      message.writeUInt32LE(status, 8);
      message.writeUInt16LE(64, 14); // credits granted
      message.writeUInt32LE(0x1, 16); // a response
      message.writeUInt32LE(0, 20);
      if (request.readUInt16LE(12) !== COMMAND.NEGOTIATE) sessionId.copy(message, 40);
      body.copy(message, HEADER_SIZE);
      if (signing && !sessionSetup) sign(signing, message);
      const frame = Buffer.alloc(4);
      frame.writeUInt32BE(message.length);
      socket.write(Buffer.concat([frame, message]));
    };

    const handle = (request: Buffer) => {
      const command = request.readUInt16LE(12);
      const body = request.subarray(HEADER_SIZE);
      if (command === COMMAND.NEGOTIATE) {
        const negotiate = Buffer.alloc(65);
        negotiate.writeUInt16LE(65, 0);
        negotiate.writeUInt16LE(1, 2); // signing enabled, not required
        negotiate.writeUInt16LE(DIALECT.SMB202, 4);
        for (const at of [28, 32, 36]) negotiate.writeUInt32LE(65536, at);
        return answer(request, STATUS.SUCCESS, negotiate);
      }
      if (command === COMMAND.SESSION_SETUP) {
        const token = request.subarray(body.readUInt16LE(12), body.readUInt16LE(12) + body.readUInt16LE(14));
        if (token.readUInt32LE(8) === 1) return answer(request, STATUS.MORE_PROCESSING_REQUIRED, sessionSetup(ntlmChallenge()), true);
        const key = sessionKeyOf(token, options);
        answer(request, STATUS.SUCCESS, sessionSetup(Buffer.alloc(0)), true);
        signing = signingState(DIALECT.SMB202, key, undefined);
        return;
      }
      if (command === COMMAND.TREE_CONNECT) {
        const tree = Buffer.alloc(16);
        tree.writeUInt16LE(16, 0);
        tree.writeUInt8(1, 2); // a disk share
        tree.writeUInt32LE(0x1f01ff, 12);
        return answer(request, STATUS.SUCCESS, tree);
      }
      if (command === COMMAND.CREATE) {
        const path = request.toString('utf16le', body.readUInt16LE(44), body.readUInt16LE(44) + body.readUInt16LE(46)).replace(/\0$/, '');
        const content = options.files?.[path];
        const fileId = crypto.randomBytes(16);
        handles.set(fileId.toString('hex'), { path, round: 0 });
        const create = Buffer.alloc(88);
        create.writeUInt16LE(89, 0);
        create.writeBigUInt64LE(133_000_000_000_000_000n, 24);
        create.writeBigUInt64LE(BigInt(content === undefined ? 0 : Buffer.byteLength(content)), 48);
        create.writeUInt32LE(content === undefined ? 0x10 : 0x20, 56);
        fileId.copy(create, 64);
        return answer(request, STATUS.SUCCESS, create);
      }
      const handle = handles.get(body.subarray(command === COMMAND.READ ? 16 : 8, command === COMMAND.READ ? 32 : 24).toString('hex'));
      if (command === COMMAND.READ) {
        const content = Buffer.from(options.files?.[handle?.path ?? ''] ?? '');
        const at = Number(body.readBigUInt64LE(8));
        if (at >= content.length) return answer(request, STATUS.END_OF_FILE, Buffer.alloc(17));
        const data = content.subarray(at, at + body.readUInt32LE(4));
        const read = Buffer.alloc(16 + data.length);
        read.writeUInt16LE(17, 0);
        read.writeUInt8(HEADER_SIZE + 16, 2);
        read.writeUInt32LE(data.length, 4);
        data.copy(read, 16);
        return answer(request, STATUS.SUCCESS, read);
      }
      if (command === COMMAND.CLOSE) {
        const close = Buffer.alloc(60);
        close.writeUInt16LE(60, 0);
        return answer(request, STATUS.SUCCESS, close);
      }
      if (command === COMMAND.QUERY_DIRECTORY) {
        rounds += 1;
        const folder = handle?.path ?? '';
        const what = options.listing(handle ? handle.round++ : 0, folder);
        if (what === 'end') return answer(request, STATUS.NO_MORE_FILES, queryDirectory(Buffer.alloc(0)));
        if ('names' in what) return answer(request, STATUS.SUCCESS, queryDirectory(directoryEntries(what.names, folder, options.files ?? {})));
        const frame = Buffer.alloc(4);
        frame.writeUInt32BE(what.frameBytes);
        socket.write(frame);
        socket.write(Buffer.alloc(Math.min(what.frameBytes, 1024 * 1024)));
        return;
      }
      return answer(request, 0xc00000bb, Buffer.alloc(9)); // STATUS_NOT_SUPPORTED
    };

    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
        const length = pending.readUInt32BE(0);
        const request = pending.subarray(4, 4 + length);
        pending = pending.subarray(4 + length);
        handle(request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get rounds() {
      return rounds;
    },
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
