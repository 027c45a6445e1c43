/**
 * A thin adapter over @tryjsky/v9u-smb2 (pure JS SMB 2.0.2/2.1 with NTLMv2; see
 * docs/decisions/0005-smb-client.md). It adds what the receiver needs and the library lacks:
 * promises that always settle (a socket closed mid-request, a server that stops answering),
 * ranged reads over a read-only handle that lets the producer keep writing, a delete that does not
 * open the file for writing first, and the domain in the NTLMv2 response.
 */
import { createRequire } from 'node:module';
import type net from 'node:net';

const require = createRequire(import.meta.url);

interface RawClient {
  socket: net.Socket;
  connected: boolean;
  domain: string;
  readdir(path: string, options: { stats: true }, cb: Callback<RawEntry[]>): void;
  stat(path: string, cb: Callback<{ size: number; mtime: Date }>): void;
}
interface RawEntry {
  name: string;
  size: number;
  mtime: Date;
  isDirectory(): boolean;
}
interface RawFile {
  FileId: Buffer;
  EndofFile: Buffer;
  LastWriteTime: Buffer;
}
interface RawResponse {
  getHeaders(): { Status: unknown; MessageId: Buffer };
}
interface RawConnection {
  responses: Record<string, RawResponse>;
  responsesCB: Record<string, (response: RawResponse) => void>;
}
type Callback<T> = (error: (Error & { code?: string }) | null | undefined, value?: T) => void;

const SMB2 = require('@tryjsky/v9u-smb2') as new (options: Record<string, unknown>) => RawClient;
const smbConnection = require('@tryjsky/v9u-smb2/lib/tools/smb2-connection.js') as { requireConnect(method: (cb: Callback<void>) => void): (this: RawClient, cb: Callback<void>) => void };
const forge = require('@tryjsky/v9u-smb2/lib/tools/smb2-forge.js') as { request(name: string, params: Record<string, unknown>, client: RawClient, cb: Callback<never>): void };

// The library leaves the domain out of the NTLMv2 response, which domain accounts need: the
// authenticate message is generated here with it (same call, one more argument).
{
  const libraryRequire = createRequire(require.resolve('@tryjsky/v9u-smb2'));
  const ntlm = libraryRequire('@tryjsky/ntlm2') as { encodeType3(type2: unknown, user: string, password: string, workstation: string, domain: string): Buffer };
  const SMB2Message = require('@tryjsky/v9u-smb2/lib/tools/smb2-message.js') as new (options: unknown) => unknown;
  const step2 = require('@tryjsky/v9u-smb2/lib/messages/session_setup_step2.js') as { generate: (c: Record<string, unknown>) => unknown };
  step2.generate = (c) =>
    new SMB2Message({
      headers: { Command: 'SESSION_SETUP', SessionId: c.SessionId, ProcessId: c.ProcessId },
      request: { Buffer: ntlm.encodeType3(c.nonce, String(c.username), String(c.password), '', String(c.domain ?? '')) },
    });
}

// Samba (and Windows) answer a slow request first with an interim STATUS_PENDING response and later
// with the real one under the same message id. The library takes the interim answer for the result
// (an error) and drops the real one: wait for the real one instead.
{
  const STATUS_PENDING = 0x103;
  for (const name of ['close', 'create', 'open', 'query_directory', 'read', 'set_info', 'tree_connect', 'negotiate', 'session_setup_step1', 'session_setup_step2']) {
    const message = require(`@tryjsky/v9u-smb2/lib/messages/${name}.js`) as { parse: (c: RawConnection, cb: unknown, error: unknown) => (response: RawResponse) => void };
    const parse = message.parse;
    message.parse = function (connection, cb, error) {
      const handle = parse.call(this, connection, cb, error);
      const wait = (response: RawResponse) => {
        const headers = response.getHeaders();
        if (!Buffer.isBuffer(headers.Status) || headers.Status.readUInt32LE(0) !== STATUS_PENDING) return handle(response);
        // The library removes this callback right after it returns: register again once it has, or
        // take the real answer if it came in the same packet and was stored as unclaimed.
        const id = headers.MessageId.toString('hex');
        queueMicrotask(() => {
          const stored = connection.responses[id];
          delete connection.responses[id];
          if (stored) wait(stored);
          else connection.responsesCB[id] = wait;
        });
      };
      return wait;
    };
  }
}

/** FILE_READ_DATA | FILE_READ_ATTRIBUTES | SYNCHRONIZE; shared read, write and delete. */
const READ_ACCESS = 0x00100081;
/** DELETE | FILE_READ_ATTRIBUTES | SYNCHRONIZE: enough to delete, never truncates. */
const DELETE_ACCESS = 0x00110080;
/** The library sends no credit charge, so one read is at most 64 KiB. */
const READ_PIECE = 0x10000;
/** Reads in flight per file: hides network latency without asking for many credits. */
const READS_IN_FLIGHT = 8;

export interface SmbTarget {
  host: string;
  port: number;
  domain: string;
  username: string;
  password: string;
  share: string;
}

export interface SmbEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

/** An error of the SMB session, with the NT status (STATUS_…) or socket error (E…) as code. */
export class SmbError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * One authenticated session on one share. Open it for a poll, close it after: no handle outlives
 * a poll. Once the connection broke, every call fails at once with the reason.
 */
export class SmbSession {
  /** Bytes of file content read in this session (listing is not counted). */
  bytesRead = 0;
  private readonly client: RawClient;
  private broken: SmbError | undefined;
  private readonly waiters = new Set<(error: SmbError) => void>();
  private closed = false;

  constructor(
    target: SmbTarget,
    private readonly timeoutMs: number,
  ) {
    this.client = new SMB2({
      share: `\\\\${target.host}\\${target.share}`,
      domain: target.domain,
      username: target.username,
      password: target.password,
      port: target.port,
      autoCloseTimeout: 0,
    });
    const socket = this.client.socket;
    let socketError: (Error & { code?: string }) | undefined;
    socket.on('error', (error: Error & { code?: string }) => (socketError = error));
    const lost = () => this.fail(socketError ? new SmbError(socketError.message, socketError.code ?? 'ECONNRESET') : new SmbError('the server closed the connection', 'ECONNRESET'));
    socket.on('end', lost);
    socket.on('close', lost);
  }

  /** Connects, logs in and connects to the share; `close()` meanwhile makes it fail at once. */
  async connect(): Promise<void> {
    try {
      const connect = smbConnection.requireConnect((cb) => cb(null));
      await this.call<void>((cb) => connect.call(this.client, cb));
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Entries of a folder (share-relative, "\" separated, "" for the share's root), with size and time. */
  async list(folder: string): Promise<SmbEntry[]> {
    const entries = await this.call<RawEntry[]>((cb) => this.client.readdir(folder, { stats: true }, cb));
    return entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory(), size: e.size, mtimeMs: e.mtime.getTime() }));
  }

  async stat(file: string): Promise<{ size: number; mtimeMs: number }> {
    const stat = await this.call<{ size: number; mtime: Date }>((cb) => this.client.stat(file, cb));
    return { size: stat.size, mtimeMs: stat.mtime.getTime() };
  }

  async exists(file: string): Promise<boolean> {
    try {
      await this.stat(file);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Up to `length` bytes from `offset` (fewer at the end of the file), read over a read-only handle. */
  async read(file: string, offset: number, length: number): Promise<Buffer> {
    const handle = await this.request<RawFile>('open', { path: file, desiredAccess: READ_ACCESS });
    try {
      const end = Math.min(offset + length, Number(handle.EndofFile.readBigUInt64LE(0)));
      // Buffer.alloc, not allocUnsafe: the bytes are transferred to the parse worker, which must not
      // take a shared pool with them.
      const out = Buffer.alloc(Math.max(0, end - offset));
      let next = offset;
      // Bytes up to the first short piece (the file shrank under us): nothing after a gap counts.
      let filled = out.length;
      const worker = async () => {
        while (next < end && next - offset < filled) {
          const at = next;
          const size = Math.min(READ_PIECE, end - at);
          next += size;
          const offsetBytes = Buffer.alloc(8);
          offsetBytes.writeBigUInt64LE(BigInt(at));
          const piece = await this.request<Buffer>('read', { FileId: handle.FileId, Length: size, Offset: offsetBytes });
          piece.copy(out, at - offset, 0, Math.min(piece.length, size));
          if (piece.length < size) filled = Math.min(filled, at - offset + piece.length);
        }
      };
      await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
      this.bytesRead += filled;
      return filled === out.length ? out : Buffer.from(out.subarray(0, filled));
    } finally {
      await this.request('close', { FileId: handle.FileId }).catch(() => undefined);
    }
  }

  /** Deletes a file: opened for DELETE only (never for writing), marked delete-on-close, closed. */
  async remove(file: string): Promise<void> {
    const handle = await this.request<RawFile>('open', { path: file, desiredAccess: DELETE_ACCESS });
    try {
      await this.request('set_info', { FileId: handle.FileId, FileInfoClass: 'FileDispositionInformation', Buffer: Buffer.from([1]) });
    } finally {
      await this.request('close', { FileId: handle.FileId }).catch(() => undefined);
    }
  }

  /** Ends the session and its socket. Safe to call twice; pending calls fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fail(new SmbError('the session was closed', 'ECONNABORTED'));
    this.client.connected = false;
    this.client.socket.destroy();
  }

  private request<T>(name: string, params: Record<string, unknown>): Promise<T> {
    return this.call<T>((cb) => forge.request(name, params, this.client, cb as Callback<never>));
  }

  /** Runs one library call; settles on its answer, on a broken connection, or after the timeout. */
  private call<T>(start: (cb: Callback<T>) => void): Promise<T> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onBroken = (error: SmbError) => finish(error);
      const timer = setTimeout(() => this.fail(new SmbError(`the server did not answer within ${Math.round(this.timeoutMs / 1000)} s`, 'ETIMEDOUT')), this.timeoutMs);
      const finish = (error: (Error & { code?: string }) | null | undefined, value?: T) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.waiters.delete(onBroken);
        if (error) reject(error instanceof SmbError ? error : new SmbError(error.message, error.code ?? 'EIO'));
        else resolve(value as T);
      };
      this.waiters.add(onBroken);
      try {
        start(finish);
      } catch (error) {
        finish(error as Error);
      }
    });
  }

  private fail(error: SmbError): void {
    if (this.broken) return;
    this.broken = error;
    for (const waiter of [...this.waiters]) waiter(error);
    this.waiters.clear();
    if (!this.closed) this.client.socket.destroy();
  }
}

/** The file or folder is not there (any more). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'STATUS_OBJECT_NAME_NOT_FOUND' || code === 'STATUS_OBJECT_PATH_NOT_FOUND' || code === 'STATUS_NO_SUCH_FILE' || code === 'STATUS_DELETE_PENDING';
}
