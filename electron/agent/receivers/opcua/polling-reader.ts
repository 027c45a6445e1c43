import { AttributeIds, type DataValue } from 'node-opcua';
import { bounded, type OpenSession } from './opcua-endpoint.js';
import type { ReaderEvents } from './subscription-reader.js';
import { type Sample, type WatchedNode, chunks, isNodeProblem, samplesOf } from './tag-index.js';
import { describeStatus } from './values.js';

/**
 * Reads by polling: every `pollIntervalMs` one Read of all nodes, split into requests of at most
 * the server's MaxNodesPerRead. A node the server refuses (unknown node id …) is reported and left
 * out; the others are read. A failed request means the session is gone: `run` resolves and the
 * receiver reconnects.
 */
export class PollingReader {
  private ended = false;
  private wake: (() => void) | undefined;
  private lose: ((reason: string) => void) | undefined;
  private readonly problems = new Map<WatchedNode, string>();

  constructor(
    private readonly open: OpenSession,
    private readonly nodes: readonly WatchedNode[],
    private readonly settings: { pollIntervalMs: number; timeoutMs: number },
    private readonly events: ReaderEvents,
  ) {}

  async run(): Promise<string> {
    const lost = new Promise<string>((resolve) => {
      this.lose = (reason) => {
        if (this.ended) return;
        this.ended = true;
        this.wake?.();
        resolve(reason);
      };
    });
    this.open.client.on('close', () => this.lose?.('the connection was closed'));
    this.open.client.on('connection_lost', () => this.lose?.('the connection was lost'));
    this.open.session.on('session_closed', () => this.lose?.('the server closed the session'));
    void this.poll();
    return lost;
  }

  stop(): void {
    this.lose?.('stopped');
  }

  private async poll(): Promise<void> {
    while (!this.ended) {
      const started = Date.now();
      try {
        await this.readAll();
      } catch (cause) {
        this.lose?.(`reading failed: ${(cause as Error).message}`);
        return;
      }
      const wait = Math.max(0, this.settings.pollIntervalMs - (Date.now() - started));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async readAll(): Promise<void> {
    const samples: Sample[] = [];
    for (const chunk of chunks(this.nodes, this.open.limits.maxNodesPerRead)) {
      if (this.ended) return;
      const values: DataValue[] = await bounded(
        this.open.session.read(chunk.map((n) => ({ nodeId: n.nodeId, attributeId: AttributeIds.Value })), 0),
        this.settings.timeoutMs,
        `no answer within ${this.settings.timeoutMs / 1000} s`,
      );
      chunk.forEach((node, i) => {
        const dataValue = values[i];
        if (!dataValue) return;
        const status = describeStatus(dataValue.statusCode).name;
        if (isNodeProblem(status)) {
          this.problems.set(node, status);
          return;
        }
        this.problems.delete(node);
        samples.push(...samplesOf(node, dataValue));
      });
    }
    this.events.nodeProblems(this.problems);
    if (samples.length > 0) this.events.values(samples);
  }
}
