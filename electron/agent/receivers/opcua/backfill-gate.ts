import type { StreamKey } from '../../components/contract.js';
import type { MarkerReporter } from '../../markers/marker-store.js';
import { type BackfillProgress, type BackfillSettings, backfillHistory } from './history-backfill.js';
import type { OpenSession } from './opcua-endpoint.js';
import type { Tag } from './stream-records.js';
import type { Sample, WatchedNode } from './tag-index.js';
import { sampleMicros } from './values.js';

/** Live values held while a backfill runs; beyond this the backfill ends early (live goes first). */
const MAX_HELD = 100_000;
const MAX_LISTED = 10;

/** Source time (µs) of the `t` in a stored last value (stream-records.ts fingerprint), if any. */
export function storedMicros(saved: string | undefined): bigint | undefined {
  if (saved === undefined) return undefined;
  try {
    const t = (JSON.parse(saved) as { t?: unknown }).t;
    const match = typeof t === 'string' ? /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(t) : null;
    if (!match) return undefined;
    const ms = Date.parse(`${match[1]}Z`);
    if (Number.isNaN(ms)) return undefined;
    return BigInt(ms) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0'));
  } catch {
    return undefined;
  }
}

export interface GateHost {
  streams: readonly StreamKey[];
  markers: MarkerReporter;
  /** The stored last value of a tag (store state `tag:<exportname>`). */
  saved(stream: number, tag: Tag): string | undefined;
  /** Commits values now; false when the outbox is full (they wait in the receiver). */
  commit(samples: Sample[]): boolean;
  warn(message: string): void;
  /** The backfill's progress (stream stats `backfill`); undefined once it is over. */
  progress(state: BackfillProgress | undefined): void;
}

/**
 * The receiver's side of a backfill (docs/decisions/0040-opcua-history-backfill.md): while it runs,
 * live values are held (in memory, bounded) and history goes first, so that every tag's values
 * are committed in source-time order; afterwards the held values not already read from history
 * are released. The progress is what stream stats show as `backfill`.
 */
export class BackfillGate {
  progress: BackfillProgress | undefined;
  private held: Sample[] | undefined;
  private overflow = false;
  private shown = '';

  constructor(private readonly host: GateHost) {}

  /** Live values: held while a backfill runs (returns []), else passed through. */
  live(samples: Sample[]): Sample[] {
    if (!this.held) return samples;
    this.held.push(...samples);
    if (this.held.length > MAX_HELD) this.overflow = true;
    return [];
  }

  async run(open: OpenSession, nodes: readonly WatchedNode[], settings: BackfillSettings, stopped: () => boolean): Promise<Sample[]> {
    this.held = [];
    this.overflow = false;
    const last = (stream: number, tag: Tag) => storedMicros(this.host.saved(stream, tag));
    const before = new Map<string, bigint | undefined>();
    const key = (stream: number, exportname: string) => `${stream}\0${exportname}`;
    for (const node of nodes) for (const r of node.readers) before.set(key(r.stream, r.tag.exportname), last(r.stream, r.tag));
    try {
      await backfillHistory(open, nodes, settings, {
        lastCommitted: (stream, exportname) => before.get(key(stream, exportname)),
        commit: (samples) => this.host.commit(samples),
        unavailable: (problems) => this.unavailable(problems),
        progress: (state) => {
          this.progress = state && { ...state };
          this.host.progress(this.progress);
        },
        stopped: () => stopped() || this.overflow,
      });
    } catch (cause) {
      this.host.warn(`Reading the history of ${open.endpointUrl} failed: ${(cause as Error).message}. Values of the gap may be missing; live values continue.`);
    } finally {
      this.progress = undefined;
      this.host.progress(undefined);
    }
    if (this.overflow) this.host.warn(`The backfill was ended early: more than ${MAX_HELD} live values waited for it. The rest of the gap is read after the next reconnect.`);
    const held = this.held;
    this.held = undefined;
    // Held live values that history already gave (at or before the last committed time) are dropped.
    const after = new Map<string, bigint | undefined>();
    return held.filter((s) => {
      const k = key(s.stream, s.tag.exportname);
      if (!after.has(k)) after.set(k, last(s.stream, s.tag));
      const committed = after.get(k);
      return committed === undefined || sampleMicros(s.dataValue, 0n) >= committed;
    });
  }

  /** One marker per stream naming the tags without readable history; no error per poll or reconnect. */
  private unavailable(problems: ReadonlyMap<WatchedNode, string>): void {
    this.host.streams.forEach((stream, index) => {
      const tags: string[] = [];
      for (const [node, status] of problems) for (const r of node.readers) if (r.stream === index) tags.push(`${r.tag.exportname} (${r.tag.node}): ${status}`);
      if (tags.length === 0) {
        this.host.markers.clear('history_unavailable', [stream]);
        return;
      }
      const listed = tags.length <= MAX_LISTED ? tags.join('; ') : `${tags.slice(0, MAX_LISTED).join('; ')}; and ${tags.length - MAX_LISTED} more`;
      const message = `The server keeps no readable history for these tags, so the gap while disconnected cannot be filled (live values are recorded): ${listed}. Enable historizing for them on the server or set history_backfill to false.`;
      this.host.markers.raise([stream], 'warning', 'history_unavailable', message);
      if (message !== this.shown) this.host.warn(message);
      this.shown = message;
    });
  }
}
