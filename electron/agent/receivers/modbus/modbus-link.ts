/**
 * One Modbus TCP connection to a device or gateway (docs/decisions/0059-modbus-library.md): a socket,
 * a jsmodbus client per unit id on it, and one request in flight at a time (many devices take one
 * request at a time, some one connection). Our own guards around the library: every request is
 * timed, and a device that sends more bytes than a Modbus answer can hold, an answer of the wrong
 * size or nothing in time has the connection closed (the next read connects afresh), so a broken
 * or hostile server costs at most one timeout, never memory or a stuck reader.
 */
import net from 'node:net';
import jsmodbus from 'jsmodbus';
import type { ModbusTable } from '../../../../shared/config/receivers/modbus/schema.js';
import { isBitTable } from '../../../../shared/config/receivers/modbus/rules.js';
import { requestSaid } from './plan.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { LinkError, closedByDevice, closedHere, connectProblem, connectTimeout, connectionBroke } from '../link-health.js';

export { LinkError, type LinkFault } from '../link-health.js';

type TcpClient = InstanceType<typeof jsmodbus.client.TCP>;

/** The largest Modbus TCP frame (7-byte header and a 253-byte PDU): more bytes for one request are no answer. */
export const MAX_FRAME_BYTES = 260;
/** The MBAP header: transaction, protocol id, length, unit id. */
const HEADER_BYTES = 7;

/** The exception codes of the Modbus specification, as a marker names them. */
const EXCEPTIONS: Record<number, string> = {
  1: 'illegal function',
  2: 'illegal data address',
  3: 'illegal data value',
  4: 'server device failure',
  5: 'acknowledge',
  6: 'server device busy',
  8: 'memory parity error',
  10: 'gateway path unavailable',
  11: 'gateway target device failed to respond',
};

export function exceptionName(code: number): string {
  return `exception ${code} (${EXCEPTIONS[code] ?? 'unknown exception code'})`;
}

export interface ReadRequestOf {
  unit: number;
  table: ModbusTable;
  address: number;
  count: number;
}

/** The device's answer to one read: its words (register tables) or bits, or the exception it answered. */
export type ReadAnswer = { words: number[]; bits?: undefined; exception?: undefined; at: number } | { bits: boolean[]; words?: undefined; exception?: undefined; at: number } | { exception: number; words?: undefined; bits?: undefined; at: number };

export interface LinkOptions {
  host: string;
  port: number;
  timeoutMs: number;
  /** Every unit id the link will be asked for (jsmodbus binds a client per unit to the socket before it connects). */
  units: readonly number[];
  now?: () => number;
}

export class ModbusLink {
  readonly label: string;
  private socket: net.Socket | undefined;
  private clients = new Map<number, TcpClient>();
  /** Why the socket closed (set once; a closed link is never reused). */
  private closedBecause: LinkError | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Bytes received since the request in flight was sent (or since the last answer). */
  private received = 0;
  /** The first bytes received since `received` was last 0 (the answer's header, once 6 are in). */
  private head: Buffer = Buffer.alloc(0);
  /** The unit id of the request in flight. */
  private asked: number | undefined;
  private failCurrent: ((error: LinkError) => void) | undefined;

  constructor(private readonly options: LinkOptions) {
    this.label = `${options.host}:${options.port}`;
  }

  get open(): boolean {
    return this.socket !== undefined && this.closedBecause === undefined;
  }

  /** Connects within the timeout; throws LinkError('connect_failed'). */
  async connect(): Promise<void> {
    const { host, port, timeoutMs } = this.options;
    const socket = new net.Socket();
    this.socket = socket;
    socket.setNoDelay(true);
    // Our listener goes first: it sees every byte before jsmodbus buffers it.
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    // Never an unhandled 'error' (it would end the agent): each phase below says what an error means.
    socket.on('error', () => undefined);
    for (const unit of new Set(this.options.units)) this.clients.set(unit, new jsmodbus.client.TCP(socket, unit, timeoutMs + 1000));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(connectTimeout(this.label, timeoutMs / 1000)), timeoutMs);
      const fail = (message: AgentMessage) => {
        clearTimeout(timer);
        this.close(new LinkError('connect_failed', message));
        reject(new LinkError('connect_failed', message));
      };
      const refused = (cause: NodeJS.ErrnoException) => fail(connectProblem(this.label, cause));
      socket.once('error', refused);
      // Closed before it connected (the receiver stopped): the wait ends with the reason.
      const closed = () => fail(this.closedBecause?.said ?? say('link.closed_before_made', 'The connection to {label} was closed before it was made.', { label: this.label }));
      socket.once('close', closed);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('close', closed);
        socket.off('error', refused);
        socket.on('error', (cause: NodeJS.ErrnoException) => this.close(new LinkError('connection_lost', connectionBroke(this.label, cause))));
        socket.on('close', () => this.close(new LinkError('connection_lost', closedByDevice(this.label))));
        resolve();
      });
      socket.connect({ host, port });
    });
  }

  /**
   * Reads one request after the ones before it have ended. An exception answer is an answer; a
   * timeout, a closed connection or an answer that does not fit the request throws LinkError and
   * leaves the link closed.
   */
  read(request: ReadRequestOf): Promise<ReadAnswer> {
    const run = this.queue.then(() => this.send(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  close(because = new LinkError('connection_lost', closedHere(this.label))): void {
    this.closedBecause ??= because;
    this.failCurrent?.(this.closedBecause);
    this.socket?.destroy();
  }

  private onData(chunk: Buffer): void {
    const before = this.received;
    this.received += chunk.length;
    if (this.received > MAX_FRAME_BYTES) {
      this.close(new LinkError('bad_answer', say('modbus.answer_too_long', '{label} sent {bytes} bytes where one Modbus answer holds at most {max}: not a Modbus TCP answer.', { label: this.label, bytes: this.received, max: MAX_FRAME_BYTES })));
      return;
    }
    // The answer's header: 2 bytes transaction, 2 bytes protocol id (0 for Modbus), 2 bytes length
    // of what follows (unit, function and at most 252 bytes), the unit id. Anything else is not
    // Modbus TCP, or not the unit asked, and is said at once instead of after the timeout.
    if (before >= HEADER_BYTES) return;
    this.head = before === 0 ? chunk : Buffer.concat([this.head, chunk]);
    if (this.head.length < HEADER_BYTES) return;
    const protocol = this.head.readUInt16BE(2);
    const length = this.head.readUInt16BE(4);
    const unit = this.head[6]!;
    if (protocol !== 0 || length < 3 || length > MAX_FRAME_BYTES - 6)
      this.close(new LinkError('bad_answer', say('modbus.header_not_modbus', '{label} sent a header that is not Modbus TCP (protocol id {protocol}, length {length}): not a Modbus TCP answer.', { label: this.label, protocol, length })));
    else if (this.asked !== undefined && unit !== this.asked)
      this.close(new LinkError('bad_answer', say('modbus.wrong_unit', '{label} answered a request to unit {asked} as unit {unit}. If the device is unit {unit}, set the stream\'s unit_id to {unit}.', { label: this.label, asked: this.asked ?? '?', unit })));
  }

  private async send(request: ReadRequestOf): Promise<ReadAnswer> {
    if (this.closedBecause) throw this.closedBecause;
    const client = this.clients.get(request.unit);
    if (!client || !this.socket) throw new LinkError('connection_lost', say('modbus.no_connection_for_unit', 'No connection to {label} for unit {unit}.', { label: this.label, unit: request.unit }));
    const what = requestSaid(request);
    this.received = 0;
    this.asked = request.unit;
    const asked = ask(client, request);
    asked.catch(() => undefined); // settled below or after the socket closed
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        asked,
        new Promise<never>((_, reject) => {
          this.failCurrent = reject;
          timer = setTimeout(() => reject(new LinkError('no_answer', say('link.no_answer', '{label} did not answer {what} within {seconds} s.', { label: this.label, what, seconds: this.options.timeoutMs / 1000 }))), this.options.timeoutMs);
        }),
      ]);
      this.received = 0;
      return this.check(request, answer, what);
    } catch (cause) {
      const exception = exceptionOf(cause);
      if (exception !== undefined) {
        this.received = 0;
        return { exception, at: this.now() };
      }
      const error = cause instanceof LinkError ? cause : new LinkError('bad_answer', say('modbus.not_an_answer', '{label} answered {what} with something that is not a Modbus answer ({error}).', { label: this.label, what, error: (cause as { message?: string }).message ?? String(cause) }));
      this.close(error);
      throw this.closedBecause ?? error;
    } finally {
      clearTimeout(timer);
      this.failCurrent = undefined;
      this.asked = undefined;
    }
  }

  private check(request: ReadRequestOf, answer: Asked, what: AgentMessage): ReadAnswer {
    const at = this.now();
    const body = answer.response.body as { valuesAsArray: ArrayLike<number | boolean>; byteCount?: number };
    const values = Array.from(body.valuesAsArray);
    if (isBitTable(request.table)) {
      // Bits come packed in bytes: ceil(count / 8) bytes, the unused bits of the last one zero.
      if (values.length < request.count || values.length > Math.ceil(request.count / 8) * 8) throw this.wrongSize(what, values.length, 'bits');
      return { bits: values.slice(0, request.count).map((v) => v === true || v === 1), at };
    }
    if (values.length !== request.count) throw this.wrongSize(what, values.length, 'registers');
    return { words: values.map((v) => Number(v) & 0xffff), at };
  }

  private wrongSize(what: AgentMessage, count: number, unit: 'bits' | 'registers'): LinkError {
    const label = this.label;
    const said =
      unit === 'bits'
        ? say('modbus.wrong_size_bits', '{label} answered {what} with {count} bits: an answer of the wrong size.', { label, what, count })
        : say('modbus.wrong_size_registers', '{label} answered {what} with {count} registers: an answer of the wrong size.', { label, what, count });
    const error = new LinkError('bad_answer', said);
    this.close(error);
    return error;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

type Asked = Awaited<ReturnType<TcpClient['readHoldingRegisters']>>;

function ask(client: TcpClient, request: ReadRequestOf): Promise<Asked> {
  switch (request.table) {
    case 'holding':
      return client.readHoldingRegisters(request.address, request.count) as Promise<Asked>;
    case 'input':
      return client.readInputRegisters(request.address, request.count) as unknown as Promise<Asked>;
    case 'coil':
      return client.readCoils(request.address, request.count) as unknown as Promise<Asked>;
    case 'discrete':
      return client.readDiscreteInputs(request.address, request.count) as unknown as Promise<Asked>;
  }
}

/** The exception code of a jsmodbus rejection that carries the device's exception answer. */
function exceptionOf(cause: unknown): number | undefined {
  const error = cause as { err?: string; response?: { body?: { code?: unknown } } };
  if (error?.err !== 'ModbusException') return undefined;
  const code = error.response?.body?.code;
  return typeof code === 'number' ? code : undefined;
}
