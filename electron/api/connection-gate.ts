import type net from 'node:net';

/**
 * Connections that have not sent a request yet (a TLS handshake under way, headers not complete)
 * are capped per client address and in total. One byte of a TLS handshake (0x16) used to hold a
 * connection 120 s without any cap: 2,100 of them stopped GET /v1/status and made receivers fail
 * with EMFILE (issue 50). A connection leaves the count with its first request, or when it closes;
 * beyond the caps a new one is closed at once. A client's own established connections (a console's
 * six, a fleet desk's keep-alive link) are not counted.
 */
export const MAX_UNFINISHED_PER_CLIENT = 64;
export const MAX_UNFINISHED = 512;

/** How the gate reports what it refused: at most one line a minute, with the counts. */
export interface GateReport {
  refused(perClient: number, total: number, example: string): void;
}

const REPORT_EVERY_MS = 60_000;

export class ConnectionGate {
  private readonly byClient = new Map<string, number>();
  private readonly unfinished = new Map<string, string>();
  private total = 0;
  private refusedPerClient = 0;
  private refusedTotal = 0;
  private example = '';
  private reportTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly report: GateReport,
    private readonly limits = { perClient: MAX_UNFINISHED_PER_CLIENT, total: MAX_UNFINISHED },
  ) {}

  /** A new connection: counted, or closed when a cap is reached. */
  admit(socket: net.Socket): void {
    const client = socket.remoteAddress ?? '?';
    const key = `${client}\0${socket.remotePort ?? 0}`;
    const ofClient = this.byClient.get(client) ?? 0;
    if (ofClient >= this.limits.perClient || this.total >= this.limits.total) {
      if (ofClient >= this.limits.perClient) this.refusedPerClient += 1;
      else this.refusedTotal += 1;
      this.example = client;
      this.scheduleReport();
      socket.destroy();
      return;
    }
    this.byClient.set(client, ofClient + 1);
    this.unfinished.set(key, client);
    this.total += 1;
    socket.once('close', () => this.settle(socket));
  }

  /** The connection's first request arrived (any socket of it: the TLS one has the same ends). */
  settle(socket: net.Socket): void {
    const key = `${socket.remoteAddress ?? '?'}\0${socket.remotePort ?? 0}`;
    const client = this.unfinished.get(key);
    if (client === undefined) return;
    this.unfinished.delete(key);
    this.total -= 1;
    const left = (this.byClient.get(client) ?? 1) - 1;
    if (left > 0) this.byClient.set(client, left);
    else this.byClient.delete(client);
  }

  /** Connections without a request now (tests, status). */
  get open(): number {
    return this.total;
  }

  close(): void {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    this.flush();
  }

  private scheduleReport(): void {
    if (this.reportTimer) return;
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined;
      this.flush();
    }, REPORT_EVERY_MS);
    this.reportTimer.unref();
    // The first refusal is told at once; the rest of the minute in one line.
    this.flush();
  }

  private flush(): void {
    if (this.refusedPerClient + this.refusedTotal === 0) return;
    this.report.refused(this.refusedPerClient, this.refusedTotal, this.example);
    this.refusedPerClient = 0;
    this.refusedTotal = 0;
  }
}
