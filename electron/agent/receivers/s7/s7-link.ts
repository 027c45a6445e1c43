/**
 * One S7comm connection to a PLC (docs/decisions/0068-s7-client.md): ISO-on-TCP (TPKT, RFC 1006)
 * with COTP, the S7 "setup communication" that negotiates the PDU size, and "read var" jobs, one in
 * flight at a time. Written here rather than taken from a library (decision 0068): every frame is
 * bounded by the negotiated PDU size before it is buffered, every step is timed, and anything that is
 * not the answer asked for closes the connection (the next poll connects afresh), so a broken or
 * hostile server costs at most one timeout, never memory, a stuck reader or an exception.
 */
import net from 'node:net';
import type { S7Area } from '../../../../shared/config/receivers/s7/address.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { LinkError, closedByDevice, closedHere, connectProblem, connectTimeout, connectionBroke } from '../link-health.js';
import { describeRange, type ReadRequest } from './plan.js';
import { parseConnectConfirm, parseReadAnswer, parseSetupAnswer, type ItemAnswer } from './s7-frames.js';

/** The PDU size asked for (what S7-300 to S7-1500 CPUs grant at most on PUT/GET). */
export const REQUESTED_PDU = 960;
/** TPKT (4) and COTP data header (3) around one PDU, plus slack for a COTP connect confirm. */
export const MAX_FRAME_BYTES = REQUESTED_PDU + 7;
const AREA_CODE: Record<S7Area, number> = { I: 0x81, Q: 0x82, M: 0x83, DB: 0x84 };

export interface S7LinkOptions {
  host: string;
  port: number;
  rack: number;
  slot: number;
  timeoutMs: number;
  now?: () => number;
}

export type ReadAnswer = { items: ItemAnswer[]; refused?: undefined; at: number } | { refused: string; items?: undefined; at: number };

export class S7Link {
  readonly label: string;
  /** The PDU size the PLC granted (240 until it said). */
  pduSize = 240;
  private socket: net.Socket | undefined;
  private closedBecause: LinkError | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private waiter: { resolve: (frame: Buffer) => void; reject: (error: LinkError) => void } | undefined;
  private reference = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: S7LinkOptions) {
    this.label = `PLC ${options.host}:${options.port} (rack ${options.rack}, slot ${options.slot})`;
  }

  get open(): boolean {
    return this.socket !== undefined && this.closedBecause === undefined;
  }

  /** TCP, COTP connect and PDU negotiation, each within the timeout; throws LinkError('connect_failed'). */
  async connect(): Promise<void> {
    const { host, port, timeoutMs } = this.options;
    const socket = new net.Socket();
    this.socket = socket;
    socket.setNoDelay(true);
    // Never an unhandled 'error' (it would end the agent).
    socket.on('error', (cause: NodeJS.ErrnoException) => this.close(new LinkError('connection_lost', connectionBroke(this.label, cause))));
    socket.on('close', () => this.close(new LinkError('connection_lost', closedByDevice(this.label))));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new LinkError('connect_failed', connectTimeout(this.label, timeoutMs / 1000))), timeoutMs);
      const fail = (error: LinkError) => {
        clearTimeout(timer);
        socket.off('connect', connected);
        this.close(error);
        reject(error);
      };
      const refused = (cause: NodeJS.ErrnoException) => fail(new LinkError('connect_failed', connectProblem(this.label, cause)));
      const connected = () => {
        clearTimeout(timer);
        socket.off('error', refused);
        resolve();
      };
      socket.once('error', refused);
      socket.once('connect', connected);
      socket.connect({ host, port });
    });
    try {
      const confirm = await this.exchange(connectRequest(this.options.rack, this.options.slot), say('s7.connection_request', 'the connection request'));
      const problem = parseConnectConfirm(confirm);
      const { label } = this;
      if (problem)
        throw new LinkError(
          'connect_failed',
          say('s7.connection_refused', '{label} refused the S7 connection ({problem}). Check rack and slot: {rack} and {slot} are asked for.', { label, problem, rack: this.options.rack, slot: this.options.slot }),
        );
      const setup = parseSetupAnswer(await this.exchange(setupRequest(this.nextReference()), say('s7.pdu_negotiation', 'the PDU negotiation')));
      if (typeof setup === 'string') throw new LinkError('connect_failed', say('s7.setup_refused', '{label} did not accept the S7 communication setup: {problem}.', { label, problem: setup }));
      this.pduSize = Math.min(REQUESTED_PDU, setup.pduSize);
    } catch (cause) {
      const error = cause instanceof LinkError ? cause : new LinkError('connect_failed', say('link.connect_failed', 'Connecting to {label} failed: {error}.', { label: this.label, error: String(cause) }));
      this.close(error.fault === 'connect_failed' ? error : new LinkError('connect_failed', error.said));
      throw this.closedBecause ?? error;
    }
  }

  /** One read job after the ones before it. A refused job or item is an answer; anything else throws LinkError and closes the link. */
  read(request: ReadRequest): Promise<ReadAnswer> {
    const run = this.queue.then(async () => {
      const reference = this.nextReference();
      const what = request.parts.map((p) => describeRange({ ...p.range, start: p.range.start + p.offset, length: p.length })).join('; ');
      const frame = await this.exchange(readRequest(reference, request), say('s7.read_of', 'the read of {ranges}', { ranges: what }));
      const answer = parseReadAnswer(frame, reference, request.parts.map((p) => p.length));
      if (typeof answer === 'string') throw this.fail('bad_answer', say('s7.read_not_answered', '{label} answered the read of {ranges} with {answer}: not an S7 answer to it.', { label: this.label, ranges: what, answer }));
      return answer.refused !== undefined ? { refused: answer.refused, at: this.now() } : { items: answer.items, at: this.now() };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(because = new LinkError('connection_lost', closedHere(this.label))): void {
    this.closedBecause ??= because;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(this.closedBecause);
    this.pending = Buffer.alloc(0);
    this.socket?.destroy();
  }

  private fail(fault: 'bad_answer' | 'no_answer', said: AgentMessage): LinkError {
    const error = new LinkError(fault, said);
    this.close(error);
    return this.closedBecause ?? error;
  }

  private nextReference(): number {
    this.reference = (this.reference % 0xffff) + 1;
    return this.reference;
  }

  /** Sends a frame and waits for the next whole frame, within the timeout. */
  private exchange(frame: Buffer, what: AgentMessage): Promise<Buffer> {
    if (!this.open) return Promise.reject(this.closedBecause ?? new LinkError('connection_lost', say('link.is_closed', 'The connection to {label} is closed.', { label: this.label })));
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => this.fail('no_answer', say('link.no_answer', '{label} did not answer {what} within {seconds} s.', { label: this.label, what, seconds: this.options.timeoutMs / 1000 })), this.options.timeoutMs);
      this.waiter = {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.socket!.write(frame);
    });
  }

  /** Cuts TPKT frames out of the byte stream, never buffering more than one bounded frame. */
  private onData(chunk: Buffer): void {
    if (this.closedBecause) return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt16BE(2);
      if (this.pending[0] !== 0x03 || length < 7 || length > MAX_FRAME_BYTES) {
        const header = this.pending.subarray(0, 4).toString('hex');
        this.fail(
          'bad_answer',
          say('s7.not_iso_on_tcp', '{label} sent bytes that are not an ISO-on-TCP frame of at most {max} bytes (header {header}): not an S7 device, or a broken connection.', { label: this.label, max: MAX_FRAME_BYTES, header }),
        );
        return;
      }
      if (this.pending.length < length) return;
      const frame = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      const waiter = this.waiter;
      this.waiter = undefined;
      if (!waiter) {
        this.fail('bad_answer', say('s7.unasked_frame', '{label} sent a frame nobody asked for.', { label: this.label }));
        return;
      }
      waiter.resolve(Buffer.from(frame));
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** COTP connection request: local TSAP 0x0100, remote TSAP of a PG connection to the CPU at rack/slot, TPDU size 1024. */
function connectRequest(rack: number, slot: number): Buffer {
  return Buffer.from([0x03, 0x00, 0x00, 0x16, 0x11, 0xe0, 0x00, 0x00, 0x00, 0x01, 0x00, 0xc1, 0x02, 0x01, 0x00, 0xc2, 0x02, 0x01, ((rack & 0x07) << 5) | (slot & 0x1f), 0xc0, 0x01, 0x0a]);
}

/** S7 setup communication: one job in flight each way, PDU size REQUESTED_PDU. */
function setupRequest(reference: number): Buffer {
  const frame = Buffer.from([0x03, 0x00, 0x00, 0x19, 0x02, 0xf0, 0x80, 0x32, 0x01, 0x00, 0x00, 0, 0, 0x00, 0x08, 0x00, 0x00, 0xf0, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0]);
  frame.writeUInt16BE(reference, 11);
  frame.writeUInt16BE(REQUESTED_PDU, 23);
  return frame;
}

/** A read var job: every part as bytes (transport size BYTE) of its area from its bit address. */
function readRequest(reference: number, request: ReadRequest): Buffer {
  const parameters = 2 + 12 * request.parts.length;
  const frame = Buffer.alloc(7 + 10 + parameters);
  frame.set([0x03, 0x00], 0);
  frame.writeUInt16BE(frame.length, 2);
  frame.set([0x02, 0xf0, 0x80, 0x32, 0x01, 0x00, 0x00], 4);
  frame.writeUInt16BE(reference, 11);
  frame.writeUInt16BE(parameters, 13);
  frame.writeUInt16BE(0, 15);
  frame[17] = 0x04;
  frame[18] = request.parts.length;
  request.parts.forEach((part, i) => {
    const at = 19 + 12 * i;
    frame.set([0x12, 0x0a, 0x10, 0x02], at);
    frame.writeUInt16BE(part.length, at + 4);
    frame.writeUInt16BE(part.range.area === 'DB' ? part.range.db : 0, at + 6);
    frame[at + 8] = AREA_CODE[part.range.area];
    const bitAddress = (part.range.start + part.offset) * 8;
    frame[at + 9] = (bitAddress >>> 16) & 0xff;
    frame.writeUInt16BE(bitAddress & 0xffff, at + 10);
  });
  return frame;
}
