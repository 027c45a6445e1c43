import type { BackfillProgress } from '../../../../shared/api/resources.js';
import { isoMicros } from '../../../../shared/records/record.js';
import type { MarkerReporter, StreamKey } from '../../components/contract.js';
import { type BackfillSettings, type HistoryValue, type Window, readHistory } from './history-backfill.js';
import type { OpenSession } from './opcua-endpoint.js';
import type { Tag } from './stream-records.js';
import type { Sample, WatchedNode } from './tag-index.js';
import { sampleMicros } from './values.js';
import { type Span, gapKey, parseSpans, spansText } from './gap-spans.js';
import { say } from '../../../../shared/config/message.js';

export { storedMicros } from './gap-spans.js';

/** How long the backfill waits for a tag's first live value (its gap's end) before leaving it to the next one. */
const FIRST_VALUE_WAIT_MS = 30_000;
const WAIT_STEP_MS = 100;
const MAX_LISTED = 10;

export interface GateHost {
  streams: readonly StreamKey[];
  markers: MarkerReporter;
  /** A stored state of a stream (`gap:<exportname>`: gaps to read). */
  saved(stream: number, key: string): string | undefined;
  /** Source time (µs) of a tag's last value committed (stream-records.ts), if any. */
  lastMicros(stream: number, exportname: string): bigint | undefined;
  /** Commits history values with the gap states per stream, like live ones; false when the outbox is full. */
  commit(samples: Sample[], state: ReadonlyMap<number, Record<string, string>>): boolean;
  warn(message: string): void;
  /** The backfill's progress (stream stats `backfill`); undefined once it is over. */
  progress(state: BackfillProgress | undefined): void;
}

type Reader = { stream: number; tag: Tag };
const keyOf = (r: Reader) => `${r.stream}\0${r.tag.exportname}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The receiver's side of a backfill (docs/decisions/0040-opcua-history-backfill.md). Live values
 * flow at once. A tag's first live value after connecting closes its gap: the open span between
 * its last committed value and that first value is stored (`gap:<exportname>`, in the live
 * records' transaction) and read from the server's history, each span strictly between its ends,
 * so every value is committed once whichever way it came; a kill or disconnect during the
 * backfill leaves the spans stored and the next connection reads them.
 */
export class BackfillGate {
  progress: BackfillProgress | undefined;
  /** Per reader: the spans of history still to read, as stored (or about to be). */
  private readonly spans = new Map<string, Span[]>();
  /** Readers with a stored last value whose first live value has not come yet on this connection. */
  private readonly awaiting = new Map<string, bigint>();
  /** Per stream: readers whose spans changed by live values and are not committed yet. */
  private readonly unsaved = new Map<number, Set<string>>();
  private readonly readers = new Map<string, Reader>();
  private problems = new Map<WatchedNode, string>();
  private shown = '';

  constructor(private readonly host: GateHost) {}

  /** Before the reader starts: the stored last values and gaps of every tag. */
  begin(nodes: readonly WatchedNode[]): void {
    this.spans.clear();
    this.awaiting.clear();
    this.unsaved.clear();
    this.readers.clear();
    for (const node of nodes)
      for (const reader of node.readers) {
        const key = keyOf(reader);
        this.readers.set(key, reader);
        const spans = parseSpans(this.host.saved(reader.stream, gapKey(reader.tag)));
        if (spans.length > 0) this.spans.set(key, spans);
        const last = this.host.lastMicros(reader.stream, reader.tag.exportname);
        // Never committed (first start, restream): live only.
        if (last !== undefined) this.awaiting.set(key, last);
      }
  }

  /** Live values (all pass): a tag's first one after connecting ends the gap since its last committed value. */
  live(samples: readonly Sample[]): void {
    if (this.awaiting.size === 0) return;
    for (const sample of samples) {
      const key = keyOf(sample);
      const last = this.awaiting.get(key);
      if (last === undefined) continue;
      this.awaiting.delete(key);
      const first = sampleMicros(sample.dataValue, 0n);
      if (first <= last + 1n) continue;
      this.spans.set(key, [...(this.spans.get(key) ?? []), { from: last, to: first }]);
      const mine = this.unsaved.get(sample.stream) ?? new Set();
      this.unsaved.set(sample.stream, mine.add(key));
    }
  }

  /** Tags the server refused to monitor give no first value: their gap waits for a later connection. */
  unmonitored(problems: ReadonlyMap<WatchedNode, string>): void {
    for (const node of problems.keys()) for (const reader of node.readers) this.awaiting.delete(keyOf(reader));
  }

  /** Gap states to commit with a stream's live records (spans its first live values opened). */
  liveState(stream: number): Record<string, string> | undefined {
    const keys = this.unsaved.get(stream);
    if (!keys || keys.size === 0) return undefined;
    const state: Record<string, string> = {};
    for (const key of keys) state[gapKey(this.readers.get(key)!.tag)] = spansText(this.spans.get(key) ?? []);
    return state;
  }

  /** The live records of a stream were committed with liveState(stream). */
  liveSaved(stream: number): void {
    this.unsaved.delete(stream);
  }

  /**
   * Reads the stored gaps, each tag once its first live value (the gap's end) has come, until all
   * are read, the connection ends (`stopped`), or no first value came for FIRST_VALUE_WAIT_MS.
   */
  async run(open: OpenSession, nodes: readonly WatchedNode[], settings: BackfillSettings, stopped: () => boolean): Promise<void> {
    const floor = BigInt(Date.now()) * 1000n - BigInt(Math.round(settings.maxHours * 3600e6));
    let todo = nodes.filter((n) => n.readers.some((r) => this.spans.has(keyOf(r)) || this.awaiting.has(keyOf(r))));
    if (todo.length === 0) return;
    this.problems = new Map();
    const starts = todo.flatMap((n) => n.readers.flatMap((r) => [...(this.spans.get(keyOf(r)) ?? []).map((s) => s.from), ...[this.awaiting.get(keyOf(r))].filter((t) => t !== undefined)]));
    const from = starts.reduce((a, b) => (a < b ? a : b), BigInt(Date.now()) * 1000n);
    this.show({ from: isoMicros(from > floor ? from : floor), to: isoMicros(BigInt(Date.now()) * 1000n), read: 0 });
    try {
      let waitingSince = Date.now();
      while (todo.length > 0 && !stopped()) {
        // A gap is read once its end is known and stored (with the first live value).
        const ready = todo.filter((n) => n.readers.every((r) => !this.awaiting.has(keyOf(r)) && !this.unsaved.get(r.stream)?.has(keyOf(r))));
        if (ready.length === 0) {
          if (Date.now() - waitingSince > FIRST_VALUE_WAIT_MS) break;
          await sleep(WAIT_STEP_MS);
          continue;
        }
        waitingSince = Date.now();
        todo = todo.filter((n) => !ready.includes(n));
        await this.read(open, ready, floor, settings, stopped);
      }
    } catch (cause) {
      this.host.warn(`Reading the history of ${open.endpointUrl} failed: ${(cause as Error).message}. The gap is read again after the next reconnect; live values continue.`);
    } finally {
      this.unavailable();
      this.show(undefined);
    }
  }

  private async read(open: OpenSession, nodes: readonly WatchedNode[], floor: bigint, settings: BackfillSettings, stopped: () => boolean): Promise<void> {
    const windows = new Map<WatchedNode, Window>();
    const cleared: WatchedNode[] = [];
    for (const node of nodes) {
      const spans = node.readers.flatMap((r) => this.spans.get(keyOf(r)) ?? []).filter((s) => s.to > floor);
      if (spans.length === 0) cleared.push(node);
      else windows.set(node, { from: spans.reduce((a, s) => (s.from < a ? s.from : a), spans[0]!.to), to: spans.reduce((a, s) => (s.to > a ? s.to : a), 0n) });
    }
    // Gaps older than history_backfill_max_hours are given up (stored as done).
    if (cleared.some((n) => n.readers.some((r) => this.spans.has(keyOf(r))))) while (!this.take([], new Map(), cleared) && !stopped()) await sleep(500);
    for (const [node, window] of windows) if (window.from < floor) windows.set(node, { from: floor, to: window.to });
    if (windows.size === 0) return;
    const to = [...windows.values()].reduce((a, w) => (w.to > a ? w.to : a), 0n);
    if (this.progress) this.show({ ...this.progress, to: isoMicros(to > floor ? to : floor) });
    await readHistory(open, windows, settings, {
      take: (values, upTo, done) => this.take(values, upTo, done),
      unavailable: (node, status) => this.problems.set(node, status),
      read: (count) => this.progress && this.show({ ...this.progress, read: this.progress.read + count }),
      stopped,
    });
  }

  /** Commits a response's values inside their readers' spans, and the spans that remain. */
  private take(values: readonly HistoryValue[], upTo: ReadonlyMap<WatchedNode, bigint>, done: readonly WatchedNode[]): boolean {
    const samples: Sample[] = [];
    for (const { node, dataValue, micros } of values)
      for (const reader of node.readers) if ((this.spans.get(keyOf(reader)) ?? []).some((s) => s.from < micros && micros < s.to)) samples.push({ stream: reader.stream, tag: reader.tag, dataValue });
    const after = new Map<string, Span[]>();
    for (const [node, micros] of upTo)
      for (const reader of node.readers) {
        const spans = this.spans.get(keyOf(reader)) ?? [];
        after.set(keyOf(reader), spans.map((s) => ({ from: s.from > micros ? s.from : micros, to: s.to })).filter((s) => s.from + 1n < s.to));
      }
    for (const node of done) {
      this.problems.delete(node);
      for (const reader of node.readers) after.set(keyOf(reader), []);
    }
    const state = new Map<number, Record<string, string>>();
    for (const [key, spans] of after) {
      const reader = this.readers.get(key)!;
      const mine = state.get(reader.stream) ?? {};
      mine[gapKey(reader.tag)] = spansText(spans);
      state.set(reader.stream, mine);
    }
    if (!this.host.commit(samples, state)) return false;
    for (const [key, spans] of after) {
      if (spans.length > 0) this.spans.set(key, spans);
      else this.spans.delete(key);
    }
    return true;
  }

  private show(progress: BackfillProgress | undefined): void {
    this.progress = progress;
    this.host.progress(progress && { ...progress });
  }

  /** One marker per stream naming the tags without readable history; no error per poll or reconnect. */
  private unavailable(): void {
    this.host.streams.forEach((stream, index) => {
      const tags: string[] = [];
      for (const [node, status] of this.problems) for (const r of node.readers) if (r.stream === index) tags.push(`${r.tag.exportname} (${r.tag.node}): ${status}`);
      if (tags.length === 0) {
        this.host.markers.clear('history_unavailable', [stream]);
        return;
      }
      // The tags are named by column, node id and status; "and N more" is said by code.
      const listed = tags.slice(0, MAX_LISTED).join('; ');
      const said =
        tags.length > MAX_LISTED
          ? say('opcua.history_unavailable_more', 'The server keeps no readable history for these tags, so the gap while disconnected cannot be filled (live values are recorded): {tags}; and {more} more. Enable historizing for them on the server or set history_backfill to false.', { tags: listed, more: tags.length - MAX_LISTED })
          : say('opcua.history_unavailable', 'The server keeps no readable history for these tags, so the gap while disconnected cannot be filled (live values are recorded): {tags}. Enable historizing for them on the server or set history_backfill to false.', { tags: listed });
      const message = said.text;
      this.host.markers.raise([stream], 'warning', 'history_unavailable', said);
      if (message !== this.shown) this.host.warn(message);
      this.shown = message;
    });
  }
}
