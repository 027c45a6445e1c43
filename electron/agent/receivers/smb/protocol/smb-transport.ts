/**
 * One SMB2/3 connection over TCP: framing (direct TCP, 4-byte length), message ids and credits,
 * interim (STATUS_PENDING) answers, and message security once a session has keys: every request
 * signed, or encrypted when the session or share requires it; answers checked and decrypted.
 * Whatever the server sends is bounded: a frame larger than MAX_FRAME, an answer that fails its
 * signature or decryption, or bytes that are no SMB2 message end the connection with an error.
 *
 * Answers are read into memory that is used again and again (the socket's read buffer, one frame
 * buffer): fresh memory for every 1 MiB answer cost more CPU than the crypto (page faults, garbage
 * collection; see docs/performance.md, "SMB 3.1.1 reads"). So an answer's bytes are valid only
 * while it is handled: `requestInto` takes them out synchronously, `request` gets its own copy.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { type CipherState, HEADER_SIZE, type SigningState, decrypt, encrypt, isSigned, sign, verify } from './smb-crypto.js';
import { STATUS, SmbError } from './smb-status.js';

/** Largest frame accepted: a 1 MiB read answer plus headers, with room to spare. */
const MAX_FRAME = 8 * 1024 * 1024 + 1024;
const PROTOCOL_SMB2 = 0x424d53fe;
const PROTOCOL_TRANSFORM = 0x424d53fd;
const FLAG_RESPONSE = 0x1;
const FLAG_ASYNC = 0x2;
/** What one socket read fills, every time (net's `onread`): no fresh memory per chunk. */
const READ_BUFFER = 256 * 1024;
/** Credits asked for with each request: enough for 8 reads of 1 MiB in flight, and some. */
const CREDITS_WANTED = 256;
const OPLOCK_BREAK_ID = 0xffffffffffffffffn;

export interface Response {
  status: number;
  header: Buffer;
  /** The whole message (header and body), as the preauth hash needs it. */
  message: Buffer;
  /** The body; offsets in the protocol count from the header start: body[x - 64]. */
  body: Buffer;
}

export interface RequestOptions {
  treeId?: number;
  /** Bytes sent or expected back, whichever is larger: sets the credit charge (64 KiB per credit). */
  payload?: number;
  /** Leave the message unsigned and unencrypted (negotiate, session setup). */
  plain?: boolean;
}

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (error: SmbError) => void;
  /** Takes what it needs out of the answer while its bytes are valid (see the file's comment). */
  consume: (response: Response) => unknown;
}

/** The default consumer: the answer in memory of its own. */
const ownCopy = (response: Response): Response => {
  const message = Buffer.from(response.message);
  return { status: response.status, header: message.subarray(0, HEADER_SIZE), message, body: message.subarray(HEADER_SIZE) };
};

export class SmbTransport {
  readonly socket: net.Socket;
  sessionId = Buffer.alloc(8);
  /** Set by the session once it has a key: then every request is signed. */
  signing: SigningState | undefined;
  /** Set when the session or a share requires encryption. */
  cipher: CipherState | undefined;
  encryptAll = false;
  readonly encryptTrees = new Set<number>();
  /** 2.0.2 knows no credit charge; every later dialect does. */
  multiCredit = false;
  /** Sent and received messages, for the preauth integrity hash while negotiating (set by the caller). */
  onMessage: ((message: Buffer) => void) | undefined;

  private nextId = 0n;
  private credits = 1;
  private readonly creditWaiters: (() => void)[] = [];
  private readonly waiting = new Map<bigint, Waiter>();
  /** The frame being received: its length once known (-1 before), bytes so far, and where they go. */
  private frameLength = -1;
  private frameHave = 0;
  private frameBuffer = Buffer.alloc(0);
  private readonly lengthBytes = Buffer.alloc(4);
  private lengthHave = 0;
  private failure: SmbError | undefined;
  private readonly noncePrefix = crypto.randomBytes(4);
  private nonceCounter = 0n;

  constructor(host: string, port: number, onFail: (error: SmbError) => void) {
    const readBuffer = Buffer.allocUnsafeSlow(READ_BUFFER);
    const onread = { buffer: readBuffer, callback: (length: number) => (this.receive(readBuffer.subarray(0, length)), true) };
    this.socket = net.connect({ host, port, noDelay: true, onread });
    let socketError: (Error & { code?: string }) | undefined;
    this.socket.on('error', (error: Error & { code?: string }) => (socketError = error));
    this.socket.on('close', () => {
      const error = socketError ? new SmbError(socketError.message, socketError.code ?? 'ECONNRESET') : new SmbError('the server closed the connection', 'ECONNRESET');
      this.fail(error);
      onFail(error);
    });
  }

  /** Sends one request and resolves with its final answer (after any STATUS_PENDING). */
  request(command: number, body: Buffer, options: RequestOptions = {}): Promise<Response> {
    return this.requestInto(command, body, options, ownCopy);
  }

  /**
   * Sends one request; `consume` gets the final answer while its bytes are valid (synchronously, in
   * the socket's read callback) and what it returns is the result: a read answer's data is copied
   * once, straight to where it belongs. An error thrown by `consume` fails this request only.
   */
  async requestInto<T>(command: number, body: Buffer, options: RequestOptions, consume: (response: Response) => T): Promise<T> {
    if (this.failure) throw this.failure;
    const charge = this.multiCredit ? Math.max(1, Math.ceil((options.payload ?? 0) / 65536)) : 1;
    while (this.credits < charge && !this.failure) await new Promise<void>((resolve) => this.creditWaiters.push(resolve));
    if (this.failure) throw this.failure;
    this.credits -= charge;
    const id = this.nextId;
    this.nextId += BigInt(charge);

    const header = Buffer.alloc(HEADER_SIZE);
    header.writeUInt32LE(PROTOCOL_SMB2, 0);
    header.writeUInt16LE(HEADER_SIZE, 4);
    header.writeUInt16LE(this.multiCredit ? charge : 0, 6);
    header.writeUInt16LE(command, 12);
    header.writeUInt16LE(Math.max(charge, CREDITS_WANTED), 14);
    header.writeBigUInt64LE(id, 24);
    header.writeUInt32LE(0xfeff, 32);
    header.writeUInt32LE(options.treeId ?? 0, 36);
    this.sessionId.copy(header, 40);
    let message: Buffer = Buffer.concat([header, body]);
    const encrypted = !options.plain && this.cipher !== undefined && (this.encryptAll || this.encryptTrees.has(options.treeId ?? -1));
    if (encrypted) message = encrypt(this.cipher!, message, this.sessionId, this.nonce());
    else if (!options.plain && this.signing) sign(this.signing, message);
    this.onMessage?.(message);

    const answer = new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, consume });
    });
    const frame = Buffer.alloc(4);
    frame.writeUInt32BE(message.length);
    this.socket.write(Buffer.concat([frame, message]));
    return answer;
  }

  /** Ends the connection; pending requests fail with `error`. */
  fail(error: SmbError): void {
    if (this.failure) return;
    this.failure = error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    for (const wake of this.creditWaiters.splice(0)) wake();
    this.socket.destroy();
  }

  /** GCM takes 12 nonce bytes, CCM 11: a random prefix and a counter never repeat within a session. */
  private nonce(): Buffer {
    const nonce = Buffer.alloc(12);
    this.noncePrefix.copy(nonce, 0, 0, 3);
    nonce.writeBigUInt64LE(++this.nonceCounter, 3);
    return nonce;
  }

  /** Cuts the byte stream into frames; a frame within one socket read is handled where it lies. */
  private receive(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.failure) {
      if (this.frameLength < 0) {
        let length: number;
        if (this.lengthHave === 0 && chunk.length - at >= 4) {
          length = chunk.readUInt32BE(at);
          at += 4;
        } else {
          const take = Math.min(4 - this.lengthHave, chunk.length - at);
          chunk.copy(this.lengthBytes, this.lengthHave, at, at + take);
          this.lengthHave += take;
          at += take;
          if (this.lengthHave < 4) return;
          this.lengthHave = 0;
          length = this.lengthBytes.readUInt32BE(0);
        }
        if (length > MAX_FRAME) {
          return this.fail(new SmbError(`the server sent a frame of ${length} bytes (at most ${MAX_FRAME} expected)`, 'SMB_PROTOCOL'));
        }
        if (chunk.length - at >= length) {
          this.handleSafely(chunk.subarray(at, at + length));
          at += length;
          continue;
        }
        // A frame spread over several reads (a 1 MiB answer is): gathered in one buffer kept for the next.
        if (this.frameBuffer.length < length) {
          this.frameBuffer = Buffer.allocUnsafeSlow(Math.max(length, Math.min(MAX_FRAME, 2 * this.frameBuffer.length)));
        }
        this.frameLength = length;
        this.frameHave = 0;
      }
      const take = Math.min(this.frameLength - this.frameHave, chunk.length - at);
      chunk.copy(this.frameBuffer, this.frameHave, at, at + take);
      this.frameHave += take;
      at += take;
      if (this.frameHave === this.frameLength) {
        this.frameLength = -1;
        this.handleSafely(this.frameBuffer.subarray(0, this.frameHave));
      }
    }
  }

  private handleSafely(frame: Buffer): void {
    try {
      this.handle(frame);
    } catch (error) {
      const message = `the server sent a message that cannot be read (${(error as Error).message})`;
      this.fail(error instanceof SmbError ? error : new SmbError(message, 'SMB_PROTOCOL'));
    }
  }

  private handle(frame: Buffer): void {
    if (frame.length < 4) throw new SmbError('the server sent a message too short to read', 'SMB_PROTOCOL');
    let message = frame;
    const encrypted = frame.readUInt32LE(0) === PROTOCOL_TRANSFORM;
    if (encrypted) {
      if (!this.cipher) throw new SmbError('the server sent an encrypted message on a session without keys', 'SMB_PROTOCOL');
      try {
        message = decrypt(this.cipher, frame);
      } catch {
        throw new SmbError('a message from the server failed decryption (altered, or not from this session)', 'SMB_PROTOCOL');
      }
    }
    if (message.length < HEADER_SIZE || message.readUInt32LE(0) !== PROTOCOL_SMB2 || !(message.readUInt32LE(16) & FLAG_RESPONSE))
      throw new SmbError('the server sent something that is not an SMB2 answer', 'SMB_PROTOCOL');
    // Compound answers come only for compound requests, which this client does not send.
    const id = message.readBigUInt64LE(24);
    const status = message.readUInt32LE(8);
    this.credits += message.readUInt16LE(14);
    for (const wake of this.creditWaiters.splice(0)) wake();
    if (id === OPLOCK_BREAK_ID) return; // no oplocks are asked for; a break notice needs no answer
    const interim = status === STATUS.PENDING && (message.readUInt32LE(16) & FLAG_ASYNC) !== 0;
    if (!encrypted && !interim && this.signing) {
      if (!isSigned(message)) throw new SmbError('the server answered without a signature on a signed session', 'SMB_PROTOCOL');
      if (!verify(this.signing, message)) throw new SmbError('an answer of the server has a wrong signature (altered on the way?)', 'SMB_PROTOCOL');
    }
    if (interim) return; // the final answer follows under the same message id
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    this.onMessage?.(message);
    const response = { status, header: message.subarray(0, HEADER_SIZE), message, body: message.subarray(HEADER_SIZE) };
    try {
      // A decrypted message is fresh memory already: no second copy of it.
      waiter.resolve(encrypted && waiter.consume === ownCopy ? response : waiter.consume(response));
    } catch (error) {
      waiter.reject(error instanceof SmbError ? error : new SmbError((error as Error).message, 'SMB_PROTOCOL'));
    }
  }
}
