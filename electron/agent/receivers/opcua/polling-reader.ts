import { AttributeIds, type DataValue } from 'node-opcua-client';
import { DisposableStore, PollingLoop } from '../../lifecycle/index.js';
import { bounded, type OpenSession, onSessionLost, saidOf } from './opcua-endpoint.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
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
  /** The session's listeners and the poll loop; disposed when the session is lost or the reader stopped. */
  private readonly resources = new DisposableStore();
  private lose: ((reason: AgentMessage) => void) | undefined;
  private readonly problems = new Map<WatchedNode, string>();

  constructor(
    private readonly open: OpenSession,
    private readonly nodes: readonly WatchedNode[],
    private readonly settings: { pollIntervalMs: number; timeoutMs: number },
    private readonly events: ReaderEvents,
  ) {}

  async run(): Promise<AgentMessage> {
    const lost = new Promise<AgentMessage>((resolve) => {
      this.lose = (reason) => {
        if (this.resources.disposed) return;
        this.resources.dispose();
        resolve(reason);
      };
    });
    onSessionLost(this.open, this.resources, (reason) => this.lose?.(reason));
    const loop = new PollingLoop({
      step: () => this.poll(),
      intervalMs: () => this.settings.pollIntervalMs,
      onError: (cause) => this.lose?.(say('opcua.reading_failed', 'reading failed: {error}', { error: saidOf(cause) })),
    });
    this.resources.add(() => void loop.dispose());
    loop.schedule(0);
    return lost;
  }

  stop(): void {
    this.lose?.(say('opcua.reader_stopped', 'stopped'));
  }

  /** One read of all nodes; the next one a poll interval after this one started. */
  private async poll(): Promise<number> {
    const started = Date.now();
    await this.readAll();
    return this.settings.pollIntervalMs - (Date.now() - started);
  }

  private async readAll(): Promise<void> {
    const samples: Sample[] = [];
    for (const chunk of chunks(this.nodes, this.open.limits.maxNodesPerRead)) {
      if (this.resources.disposed) return;
      const values: DataValue[] = await bounded(
        this.open.session.read(chunk.map((n) => ({ nodeId: n.nodeId, attributeId: AttributeIds.Value })), 0),
        this.settings.timeoutMs,
        say('opcua.no_answer_within', 'no answer within {seconds} s', { seconds: this.settings.timeoutMs / 1000 }),
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
