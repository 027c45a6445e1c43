/**
 * The SMB client of the smb receiver: SMB 2.0.2 to 3.1.1 with NTLMv2, signing and encryption
 * (protocol/, node:crypto only; see docs/decisions/0037-smb3-client.md). One session per poll:
 * connect, log in, open the share, list, read byte ranges over a read-only handle that lets the
 * producer keep writing, delete without opening for writing, close. Every call settles: on its
 * answer, on a broken connection, or after the timeout; once the connection broke, every call
 * fails at once with the reason.
 */
import crypto from 'node:crypto';
import { authenticateMessage, negotiateMessage, parseChallenge } from './protocol/ntlm.js';
import { CIPHER, DIALECT, SIGNING, cipherState, isSigned, preauthUpdate, signingState, verify } from './protocol/smb-crypto.js';
import * as msg from './protocol/smb-messages.js';
import { STATUS, SmbError, statusError, statusName } from './protocol/smb-status.js';
import { type Response, SmbTransport } from './protocol/smb-transport.js';
import { ReadAhead } from './smb-read-ahead.js';

export { SmbError } from './protocol/smb-status.js';

/** FILE_READ_DATA | FILE_READ_ATTRIBUTES | SYNCHRONIZE. */
const READ_ACCESS = 0x00100081;
/** FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | SYNCHRONIZE. */
const LIST_ACCESS = 0x00100081;
/** DELETE | FILE_READ_ATTRIBUTES | SYNCHRONIZE: enough to delete, never truncates. */
const DELETE_ACCESS = 0x00110080;
const FILE_DIRECTORY_FILE = 0x1;
const FILE_NON_DIRECTORY_FILE = 0x40;
/** One read asks for up to 1 MiB (16 credits); 2.0.2 servers get 64 KiB pieces. */
const READ_PIECE = 1024 * 1024;
const READS_IN_FLIGHT = 4;
/** One folder's listing ends here at the latest (a real folder of this many files is unreadable anyway). */
const MAX_FOLDER_ENTRIES = 1_000_000;
/** Answers without an entry and without NO_MORE_FILES in a row: a server that will not end the listing. */
const MAX_EMPTY_LISTING_ROUNDS = 16;
const ALL_DIALECTS = [DIALECT.SMB202, DIALECT.SMB210, DIALECT.SMB300, DIALECT.SMB302, DIALECT.SMB311];

export interface SmbTarget {
  host: string;
  port: number;
  domain: string;
  username: string;
  password: string;
  share: string;
  /**
   * Narrows what the client does, for tests of how servers refuse it: `signing: false` never signs,
   * `encryption: false` never encrypts, `dialects` offers only these.
   */
  limits?: { signing?: boolean; encryption?: boolean; dialects?: number[] };
}

export interface SmbEntry {
  name: string;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

/** What the session agreed with the server, for logs and tests. */
export interface SmbSecurity {
  dialect: string;
  signing: string | undefined;
  encryption: string | undefined;
}

const DIALECT_NAMES: Record<number, string> = { 0x202: '2.0.2', 0x210: '2.1', 0x300: '3.0', 0x302: '3.0.2', 0x311: '3.1.1' };
const CIPHER_NAMES: Record<number, string> = { [CIPHER.AES128CCM]: 'AES-128-CCM', [CIPHER.AES128GCM]: 'AES-128-GCM', [CIPHER.AES256CCM]: 'AES-256-CCM', [CIPHER.AES256GCM]: 'AES-256-GCM' };
const SIGNING_NAMES: Record<number, string> = { [SIGNING.HMACSHA256]: 'HMAC-SHA256', [SIGNING.AESCMAC]: 'AES-128-CMAC', [SIGNING.AESGMAC]: 'AES-128-GMAC' };

export class SmbSession {
  /** Bytes of file content read in this session (listing is not counted). */
  bytesRead = 0;
  security: SmbSecurity | undefined;
  private readonly transport: SmbTransport;
  private broken: SmbError | undefined;
  private readonly waiters = new Set<(error: SmbError) => void>();
  private closed = false;
  private treeId = 0;
  private readPiece = 65536;
  private readonly ahead = new ReadAhead((fileId, offset, length, into) => this.readRange(fileId, offset, length, into));

  constructor(
    private readonly target: SmbTarget,
    private readonly timeoutMs: number,
  ) {
    this.transport = new SmbTransport(target.host, target.port, (error) => this.fail(error));
  }

  /** Connects, negotiates, logs in and opens the share; `close()` meanwhile makes it fail at once. */
  async connect(): Promise<void> {
    try {
      await this.call(async () => {
        const negotiated = await this.negotiate();
        await this.logIn(negotiated);
        await this.openShare(negotiated);
      });
    } catch (error) {
      this.close();
      throw error;
    }
  }

  private async negotiate(): Promise<msg.Negotiated & { preauth: Buffer }> {
    const limits = this.target.limits ?? {};
    let preauth: Buffer = Buffer.alloc(64);
    this.transport.onMessage = (message) => (preauth = preauthUpdate(preauth, message));
    const dialects = limits.dialects ?? ALL_DIALECTS;
    const response = await this.transport.request(msg.COMMAND.NEGOTIATE, msg.negotiateRequest(dialects, crypto.randomBytes(16), crypto.randomBytes(32)), { plain: true });
    if (response.status !== STATUS.SUCCESS) {
      const offered = dialects.map((d) => DIALECT_NAMES[d]).join(', ');
      throw new SmbError(`the server refused every SMB dialect offered (${offered}; ${statusName(response.status)})`, 'SMB_DIALECT_REFUSED');
    }
    const negotiated = msg.parseNegotiate(response.body);
    if (!dialects.includes(negotiated.dialect as never)) throw new SmbError(`the server chose a dialect that was not offered (0x${negotiated.dialect.toString(16)})`, 'SMB_DIALECT_REFUSED');
    this.transport.multiCredit = negotiated.dialect >= DIALECT.SMB210 && (negotiated.capabilities & 0x4) !== 0;
    // At least 4 KiB whatever the server claims: a read size of 0 would never get to the end of a range.
    this.readPiece = this.transport.multiCredit ? Math.max(4096, Math.min(READ_PIECE, negotiated.maxReadSize)) : 65536;
    if (negotiated.dialect !== DIALECT.SMB311) this.transport.onMessage = undefined;
    return { ...negotiated, get preauth() { return preauth; } };
  }

  private async logIn(negotiated: msg.Negotiated & { preauth: Buffer }): Promise<void> {
    const limits = this.target.limits ?? {};
    const first = await this.transport.request(msg.COMMAND.SESSION_SETUP, msg.sessionSetupRequest(negotiateMessage()), { plain: true });
    if (first.status !== STATUS.MORE_PROCESSING_REQUIRED) throw statusError(first.status, 'logging in');
    first.header.copy(this.transport.sessionId, 0, 40, 48);
    const challenge = parseChallenge(msg.parseSessionSetup(first.body).token);
    const { message, sessionKey } = authenticateMessage(challenge, this.target);
    // The final answer is not part of the preauth hash: stop hashing before it arrives.
    let sent = false;
    const hashing = this.transport.onMessage;
    if (hashing) this.transport.onMessage = (m) => (sent ? undefined : ((sent = true), hashing(m)));
    const last = await this.transport.request(msg.COMMAND.SESSION_SETUP, msg.sessionSetupRequest(message), { plain: true });
    this.transport.onMessage = undefined;
    if (last.status !== STATUS.SUCCESS) throw statusError(last.status, 'logging in');
    const flags = msg.parseSessionSetup(last.body).flags;
    if (flags & (msg.SESSION_IS_GUEST | msg.SESSION_IS_NULL)) throw new SmbError('the server let the user in only as a guest', 'STATUS_LOGON_FAILURE');
    const preauth = negotiated.dialect === DIALECT.SMB311 ? negotiated.preauth : undefined;
    const signing = signingState(negotiated.dialect, sessionKey, preauth, negotiated.signingAlgorithm);
    // A signed final answer proves that both sides hold the same key (and, in 3.1.1, saw the same
    // negotiation). 3.1.1 requires it signed ([MS-SMB2] 3.2.5.3.1): an unsigned one could come from a
    // man in the middle who took the cipher out of the negotiation.
    if (negotiated.dialect === DIALECT.SMB311 && !isSigned(last.message))
      throw new SmbError('the server\'s login answer is not signed (the negotiation was altered?)', 'SMB_PROTOCOL');
    if (isSigned(last.message) && !verify(signing, last.message)) throw new SmbError('the server\'s login answer has a wrong signature (the negotiation was altered?)', 'SMB_PROTOCOL');
    const mustSign = (negotiated.securityMode & 0x2) !== 0;
    if (limits.signing !== false) this.transport.signing = signing;
    // 3.1.1 servers refuse an unsigned tree connect whatever their settings ([MS-SMB2] 3.3.5.7).
    this.signingRequiredButOff = (mustSign || negotiated.dialect === DIALECT.SMB311) && limits.signing === false;
    if (negotiated.cipher && limits.encryption !== false) this.transport.cipher = cipherState(negotiated.dialect, negotiated.cipher, sessionKey, preauth);
    if (flags & msg.SESSION_ENCRYPT_DATA) {
      if (!this.transport.cipher) throw new SmbError('the server encrypts every session, and this session cannot encrypt', 'SMB_ENCRYPTION_REQUIRED');
      this.transport.encryptAll = true;
    }
    const encrypting = this.transport.encryptAll;
    this.security = {
      dialect: DIALECT_NAMES[negotiated.dialect] ?? `0x${negotiated.dialect.toString(16)}`,
      signing: this.transport.signing && !encrypting ? SIGNING_NAMES[signing.algorithm] : undefined,
      encryption: encrypting ? CIPHER_NAMES[negotiated.cipher] : undefined,
    };
    this.negotiatedCipher = negotiated.cipher;
  }

  private signingRequiredButOff = false;
  private negotiatedCipher = 0;

  private async openShare(negotiated: msg.Negotiated): Promise<void> {
    const response = await this.transport.request(msg.COMMAND.TREE_CONNECT, msg.treeConnectRequest(`\\\\${this.target.host}\\${this.target.share}`));
    if (response.status === STATUS.ACCESS_DENIED && this.signingRequiredButOff)
      throw new SmbError('the server requires signing and this session does not sign', 'SMB_SIGNING_REQUIRED');
    if (response.status === STATUS.ACCESS_DENIED && !this.transport.cipher && negotiated.dialect < DIALECT.SMB300)
      throw new SmbError(`access denied to the share over SMB ${DIALECT_NAMES[negotiated.dialect]}, which cannot encrypt`, 'STATUS_ACCESS_DENIED');
    if (response.status !== STATUS.SUCCESS) throw statusError(response.status, 'opening the share');
    this.treeId = response.header.readUInt32LE(36);
    if (msg.parseTreeConnect(response.body).shareFlags & msg.SHARE_ENCRYPT_DATA) {
      if (!this.transport.cipher) throw new SmbError('the share requires encryption, and this session cannot encrypt', 'SMB_ENCRYPTION_REQUIRED');
      this.transport.encryptTrees.add(this.treeId);
      if (this.security) this.security = { ...this.security, signing: undefined, encryption: CIPHER_NAMES[this.negotiatedCipher] };
    }
  }

  /** Entries of a folder (share-relative, "\" separated, "" for the share's root), with size and time. */
  async list(folder: string): Promise<SmbEntry[]> {
    return this.call(async () => {
      const dir = await this.open(folder, LIST_ACCESS, FILE_DIRECTORY_FILE);
      try {
        const entries: SmbEntry[] = [];
        // A server that never says NO_MORE_FILES (or answers nothing, again and again) must not list
        // forever or fill the memory: the rounds are bounded by what a folder can honestly hold.
        for (let first = true, empty = 0; ; first = false) {
          const response = await this.send(msg.COMMAND.QUERY_DIRECTORY, msg.queryDirectoryRequest(dir.fileId, first), 65536);
          if (response.status === STATUS.NO_MORE_FILES) return entries;
          if (response.status !== STATUS.SUCCESS) throw statusError(response.status, 'listing the folder');
          const found = msg.parseQueryDirectory(response.body);
          empty = found.length === 0 ? empty + 1 : 0;
          // One by one: push(...found) throws for an answer of ~120,000 entries (an 8 MiB frame holds more).
          for (const entry of found) entries.push(entry);
          const endless =
            empty >= MAX_EMPTY_LISTING_ROUNDS
              ? `${empty} empty answers in a row`
              : entries.length > MAX_FOLDER_ENTRIES
                ? `stopped after ${entries.length} entries`
                : undefined;
          if (endless) {
            const what = `the server did not end the listing of ${folder || 'the share'} (${endless})`;
            throw new SmbError(what, 'SMB_ENDLESS_LISTING');
          }
        }
      } finally {
        await this.closeFile(dir.fileId);
      }
    });
  }

  async stat(file: string): Promise<{ size: number; mtimeMs: number }> {
    return this.call(async () => {
      const handle = await this.open(file, 0x00100080, 0);
      await this.closeFile(handle.fileId);
      return { size: handle.size, mtimeMs: handle.mtimeMs };
    });
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

  /**
   * Up to `length` bytes from `offset` (fewer at the end of the file), read over a read-only handle.
   * The handle stays open for the next range of the same file (the receiver reads a file chunk by
   * chunk): one round trip per chunk instead of three. It closes with the session, or when another
   * file is read or this one deleted.
   */
  async read(file: string, offset: number, length: number): Promise<Buffer> {
    return this.call(async () => {
      const fileId = await this.readHandle(file);
      let bytes = await this.ahead.take(file, fileId, offset, length);
      if (!bytes) {
        this.ahead.drop();
        bytes = await this.readRange(fileId, offset, length);
        if (bytes.length === length) this.ahead.start(file, fileId, offset + length, length);
      }
      this.bytesRead += bytes.length;
      return bytes;
    });
  }

  /** The bytes of a range, read into `into` (a window's memory) or into memory of their own. */
  private async readRange(fileId: Buffer, offset: number, length: number, into?: Buffer): Promise<Buffer> {
    const end = offset + length;
    // Its own memory, not a slice of Node's shared pool: the bytes are transferred to the parse
    // worker. Not zeroed: every byte is written, or cut off below.
    const out = into ?? Buffer.allocUnsafeSlow(Math.max(0, length));
    let next = offset;
    // Bytes up to the first short piece (the end of the file): nothing after a gap counts.
    let filled = out.length;
    const worker = async () => {
      while (next < end && next - offset < filled) {
        const at = next;
        const size = Math.min(this.readPiece, end - at);
        next += size;
        // The data goes straight from the answer to its place in `out` (the answer's memory is reused).
        const got = await this.sendInto(msg.COMMAND.READ, msg.readRequest(fileId, at, size), size, (response) => {
          if (response.status === STATUS.END_OF_FILE) return 0;
          if (response.status !== STATUS.SUCCESS) throw statusError(response.status, 'reading');
          const piece = msg.parseRead(response.body);
          return piece.copy(out, at - offset, 0, Math.min(piece.length, size));
        }).catch((error: unknown) => {
          next = end; // the other reads stop too
          throw error;
        });
        if (got < size) filled = Math.min(filled, at - offset + got);
      }
    };
    // Settled only once no read writes to `out` any more: a window's memory serves the next window.
    const results = await Promise.allSettled(Array.from({ length: READS_IN_FLIGHT }, worker));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (filled === out.length) return out;
    if (into) return into.subarray(0, filled);
    const short = Buffer.allocUnsafeSlow(filled); // own memory here too (Buffer.from may take the pool)
    out.copy(short, 0, 0, filled);
    return short;
  }

  private reading: { file: string; fileId: Promise<Buffer> } | undefined;

  private readHandle(file: string): Promise<Buffer> {
    if (this.reading?.file === file) return this.reading.fileId;
    void this.dropReadHandle();
    const fileId = this.open(file, READ_ACCESS, FILE_NON_DIRECTORY_FILE).then((handle) => handle.fileId);
    this.reading = { file, fileId };
    fileId.catch(() => {
      if (this.reading?.fileId === fileId) this.reading = undefined;
    });
    return fileId;
  }

  private async dropReadHandle(file?: string): Promise<void> {
    const reading = this.reading;
    if (!reading || (file !== undefined && reading.file !== file)) return;
    this.reading = undefined;
    this.ahead.drop();
    const fileId = await reading.fileId.catch(() => undefined);
    if (fileId) await this.closeFile(fileId);
  }

  /** Deletes a file: opened for DELETE only (never for writing), marked delete-on-close, closed. */
  async remove(file: string): Promise<void> {
    return this.call(async () => {
      await this.dropReadHandle(file); // our own open handle would hold the delete back
      const handle = await this.open(file, DELETE_ACCESS, FILE_NON_DIRECTORY_FILE);
      try {
        const response = await this.send(msg.COMMAND.SET_INFO, msg.deleteOnCloseRequest(handle.fileId), 0);
        if (response.status !== STATUS.SUCCESS) throw statusError(response.status, 'deleting');
      } finally {
        await this.closeFile(handle.fileId);
      }
    });
  }

  /** Ends the session and its socket. Safe to call twice; pending calls fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fail(new SmbError('the session was closed', 'ECONNABORTED'));
  }

  private async open(path: string, access: number, options: number): Promise<msg.OpenFile> {
    const response = await this.send(msg.COMMAND.CREATE, msg.createRequest({ path, access, options }), 0);
    if (response.status !== STATUS.SUCCESS) throw statusError(response.status, `opening ${path || 'the share'}`);
    return msg.parseCreate(response.body);
  }

  private async closeFile(fileId: Buffer): Promise<void> {
    await this.send(msg.COMMAND.CLOSE, msg.closeRequest(fileId), 0).catch(() => undefined);
  }

  private send(command: number, body: Buffer, payload: number): Promise<Response> {
    if (this.broken) return Promise.reject(this.broken);
    return this.transport.request(command, body, { treeId: this.treeId, payload });
  }

  private sendInto<T>(command: number, body: Buffer, payload: number, consume: (response: Response) => T): Promise<T> {
    if (this.broken) return Promise.reject(this.broken);
    return this.transport.requestInto(command, body, { treeId: this.treeId, payload }, consume);
  }

  /** Runs one operation; settles on its result, on a broken connection, or after the timeout. */
  private call<T>(run: () => Promise<T>): Promise<T> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (error: unknown, value?: T) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.waiters.delete(finish);
        if (error) reject(error instanceof SmbError ? error : new SmbError((error as Error).message, (error as { code?: string }).code ?? 'EIO'));
        else resolve(value as T);
      };
      const timer = setTimeout(() => this.fail(new SmbError(`the server did not answer within ${Math.round(this.timeoutMs / 1000)} s`, 'ETIMEDOUT')), this.timeoutMs);
      this.waiters.add(finish);
      run().then(
        (value) => finish(undefined, value),
        (error: unknown) => finish(error),
      );
    });
  }

  private fail(error: SmbError): void {
    if (this.broken) return;
    this.broken = error;
    for (const waiter of [...this.waiters]) waiter(error);
    this.waiters.clear();
    this.transport.fail(error);
  }
}

/** The file or folder is not there (any more). */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'STATUS_OBJECT_NAME_NOT_FOUND' || code === 'STATUS_OBJECT_PATH_NOT_FOUND' || code === 'STATUS_NO_SUCH_FILE' || code === 'STATUS_DELETE_PENDING';
}
