import type { Counter, Gauge, Registry } from 'prom-client';
import type { Status } from '../../shared/api/resources.js';
import type { AgentRuntime } from '../agent/index.js';

/** One scrape's view of the agent: read once, then every metric is filled from it. */
interface Scrape {
  status: Status;
  flows: ReturnType<AgentRuntime['flow']['streamFlows']>;
}

/**
 * GET /metrics in the Prometheus text exposition format (prom-client), from the counters the agent
 * keeps anyway (per batch, never per record): a scrape reads them once and costs the data path
 * nothing. One registry per agent, built at the first scrape: prom-client's process metrics watch
 * the event loop and garbage collection from then on, which an agent that is never scraped does not
 * need (docs/decisions/0022-prometheus-metrics.md). prom-client itself (~5 MB) is loaded then too.
 */
export class MetricsExporter {
  private registry: Promise<Registry> | undefined;
  private scrape: Scrape | undefined;

  constructor(private readonly runtime: AgentRuntime) {}

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    // One registry even when the first scrapes come together (the import is awaited once).
    const registry = await (this.registry ??= import('prom-client').then((prom) => this.build(prom)));
    this.scrape = { status: this.runtime.status(), flows: this.runtime.flow.streamFlows() };
    try {
      return { contentType: registry.contentType, body: await registry.metrics() };
    } finally {
      this.scrape = undefined;
    }
  }

  private build(prom: typeof import('prom-client')): Registry {
    const { Counter, Gauge, Registry, collectDefaultMetrics } = prom;
    const registry = new Registry();
    const registers = [registry];
    const scrape = () => this.scrape ?? { status: this.runtime.status(), flows: this.runtime.flow.streamFlows() };
    collectDefaultMetrics({ register: registry });
    new Counter({
      name: 'tributary_records_read_total',
      help: 'Records read and committed per stream since the agent started.',
      labelNames: ['receiver', 'asset', 'stream_type'],
      registers,
      collect() {
        this.reset();
        for (const flow of scrape().flows) this.inc({ receiver: flow.receiver, asset: flow.asset, stream_type: flow.stream_type }, flow.recordsRead);
      },
    });
    new Gauge({
      name: 'tributary_last_record_timestamp_seconds',
      help: "The newest record's own timestamp per stream (Unix seconds).",
      labelNames: ['asset', 'stream_type'],
      registers,
      collect() {
        this.reset();
        const newest = new Map<string, { asset: string; stream_type: string; seconds: number }>();
        for (const flow of scrape().flows) {
          const seconds = flow.lastRecordTimestamp === undefined ? Number.NaN : Date.parse(flow.lastRecordTimestamp) / 1000;
          if (Number.isNaN(seconds)) continue;
          const key = `${flow.asset}\0${flow.stream_type}`;
          if ((newest.get(key)?.seconds ?? Number.NEGATIVE_INFINITY) < seconds) newest.set(key, { asset: flow.asset, stream_type: flow.stream_type, seconds });
        }
        for (const { seconds, ...labels } of newest.values()) this.set(labels, seconds);
      },
    });
    const quality = this.runtime.flow.quality;
    new Gauge({
      name: 'tributary_quality_findings',
      help: 'Open findings of the data-quality watch per stream and check (stuck, range, gap, clock, schema); 0 once they close.',
      labelNames: ['asset', 'stream_type', 'check'],
      registers,
      collect() {
        this.reset();
        for (const { count, ...labels } of quality.counts()) this.set(labels, count);
      },
    });
    const perTransmit = (name: string, help: string, value: (t: Status['last_data_transmit'][string]) => number, kind: 'counter' | 'gauge') => {
      const collect = function (this: Counter | Gauge) {
        this.reset();
        for (const [transmit, stats] of Object.entries(scrape().status.last_data_transmit)) {
          if (this instanceof Counter) this.inc({ transmit }, value(stats));
          else this.set({ transmit }, value(stats));
        }
      };
      if (kind === 'counter') new Counter({ name, help, labelNames: ['transmit'], registers, collect });
      else new Gauge({ name, help, labelNames: ['transmit'], registers, collect });
    };
    perTransmit('tributary_records_sent_total', 'Records delivered per transmit (kept across restarts).', (t) => t.records_sent, 'counter');
    perTransmit('tributary_upload_errors_total', 'Failed deliveries per transmit since the agent started (each is retried).', (t) => t.upload_errors, 'counter');
    perTransmit('tributary_backlog_records', 'Records waiting in the outbox per transmit.', (t) => t.backlog_records, 'gauge');
    perTransmit('tributary_backlog_bytes', 'Bytes waiting in the outbox per transmit.', (t) => t.backlog_bytes, 'gauge');
    perTransmit('tributary_lag_seconds', 'Age of the oldest record in the outbox per transmit (0 when empty).', (t) => t.lag_seconds ?? 0, 'gauge');
    new Gauge({
      name: 'tributary_service_up',
      help: 'Whether each service (receiver:<name>, transform:<name>, transmit:<name>) runs: 1, else 0.',
      labelNames: ['service'],
      registers,
      collect() {
        this.reset();
        for (const [service, state] of Object.entries(scrape().status.agent.services)) this.set({ service }, state.status === 'running' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'tributary_agent_up',
      help: 'Whether the agent runs (1), or is stopped or failed (0).',
      registers,
      collect() {
        this.set(scrape().status.agent.status === 'running' ? 1 : 0);
      },
    });
    return registry;
  }
}
