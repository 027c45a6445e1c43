/**
 * The data-quality watch on the main thread: judges each committed batch's digest (quality-digest.ts)
 * against the stream's settings, and the time since each stream's last record. A finding opens
 * once, stays open while its condition holds (its words kept current) and closes by itself when the
 * condition ends. Bounded: per stream at most MAX_WATCHED_FIELDS field runs and a few findings.
 */
import { type QualitySettings, qualitySettingsFor } from '../../../shared/config/data-quality-rules.js';
import type { DataQualityEntry } from '../../../shared/config/data-quality-schema.js';
import { streamId } from '../../../shared/config/streams.js';
import type { QualityFinding } from '../../../shared/api/resources.js';
import type { StreamKey } from '../components/contract.js';
import type { Logger } from '../logging/logger.js';
import type { QualityStore, StoredFinding } from '../store/quality-store.js';
import type { Clock } from '../time/clock.js';
import { type FieldDigest, MAX_WATCHED_FIELDS, type QualityDigest, type ValueRun } from '../components/quality-digest.js';
import { duration, words } from './quality-words.js';
import type { AgentMessage, MessageParams } from '../../../shared/config/message.js';
import { UsualInterval, usualGapMs } from './usual-interval.js';
import { DisposableStore } from '../lifecycle/index.js';

type Check = QualityFinding['check'];

interface Finding {
  id: number | undefined;
  check: Check;
  field: string | null;
  since: number;
  detail: string;
  /** The detail's code and parameters (a finding restored from the last run has its text only). */
  code?: string;
  params?: MessageParams;
  /** range: values out of range since it opened. */
  records: number;
  /** schema: the columns before the change (back to them, the finding closes). */
  before?: string[];
}

interface StreamWatch {
  stream: StreamKey;
  settings: QualitySettings;
  runs: Map<string, ValueRun>;
  columns: string[] | undefined;
  interval: UsualInterval;
  /** Wall time of the last commit with records (or since the watch began to wait for one). */
  lastRecord: number;
  findings: Map<string, Finding>;
  /** Checks that had a finding in this run: their gauge reads 0 once it closes, rather than vanishing. */
  fired: Set<Check>;
}

/** A changed set of columns stays a finding this long, unless the columns change back before. */
export const SCHEMA_FINDING_MS = 60 * 60_000;
const TICK_MS = 5_000;
const DAY_MS = 24 * 60 * 60_000;

/** Whether the settings still check what the finding is about. */
function checks(settings: QualitySettings, finding: { check: Check; field: string | null }): boolean {
  if (finding.check === 'stuck') return settings.stuck !== null && (settings.stuck.fields === null || settings.stuck.fields.includes(finding.field ?? ''));
  if (finding.check === 'range') return finding.field !== null && Object.hasOwn(settings.range, finding.field);
  if (finding.check === 'gap') return settings.gap !== null;
  if (finding.check === 'clock') return settings.clock !== null;
  return settings.schema;
}

const findingKey = (check: Check, field: string | null) => `${check}\0${field ?? ''}`;

export interface QualityWatchOptions {
  clock: Clock;
  logger: Logger;
  store?: QualityStore;
  tickMs?: number;
}

export class QualityWatch {
  private readonly streams = new Map<string, StreamWatch>();
  private entries: readonly DataQualityEntry[] | undefined;
  /** The gap check's timer while the watch runs. */
  private running: DisposableStore | undefined;
  private storeFailed = false;
  private restored = false;

  constructor(private readonly options: QualityWatchOptions) {}

  private now(): number {
    return Number(this.options.clock.nowMicros() / 1000n);
  }

  /** The settings of a stream under the current configuration (the commit plans carry them). */
  settingsFor(stream: StreamKey): QualitySettings {
    return this.watch(stream).settings;
  }

  /** A (new) configuration: its data_quality section and its streams (which the gap check waits for). */
  configure(entries: readonly DataQualityEntry[] | undefined, streams: readonly StreamKey[]): void {
    this.restore();
    this.entries = entries;
    const now = this.now();
    const configured = new Set(streams.map((s) => streamId(s.asset, s.stream_type)));
    for (const [id, watch] of this.streams) {
      if (!configured.has(id)) {
        for (const finding of watch.findings.values()) this.close(watch, finding, now, 'the stream is no longer configured');
        this.streams.delete(id);
      } else {
        watch.settings = qualitySettingsFor(entries, id);
        watch.lastRecord = Math.max(watch.lastRecord, now);
        for (const finding of [...watch.findings.values()]) if (!checks(watch.settings, finding)) this.close(watch, finding, now, 'the check is no longer configured');
      }
    }
    for (const stream of streams) this.watch(stream);
  }

  /** Starts the gap check (every few seconds). */
  start(): void {
    this.restore();
    if (this.running) return;
    this.running = new DisposableStore();
    this.running.setInterval(() => this.tick(), this.options.tickMs ?? TICK_MS);
  }

  /** Stops the gap check: a stopped agent has no gaps. Open findings stay (and are kept). */
  stop(): void {
    this.running?.dispose();
    this.running = undefined;
    const now = this.now();
    for (const watch of this.streams.values()) {
      watch.lastRecord = Math.max(watch.lastRecord, now);
      for (const finding of watch.findings.values()) this.keep(finding, null);
    }
  }

  /** A batch of `count` records of this stream was committed (digest: what the commit path saw of it). */
  committed(stream: StreamKey, count: number, digest: QualityDigest | undefined): void {
    if (count === 0) return;
    const watch = this.watch(stream);
    const now = this.now();
    watch.interval.arrived(now);
    watch.lastRecord = now;
    this.closeIf(watch, 'gap', null, now, 'records arrive again');
    if (!digest) return;
    const { settings } = watch;
    for (const [field, fd] of Object.entries(digest.fields)) {
      if (settings.stuck && fd.lead) this.judgeRuns(watch, field, fd, settings.stuck);
      const range = settings.range[field];
      if (range && fd.out) this.judgeRange(watch, field, fd.out, range, now);
    }
    if (settings.clock && digest.times) this.judgeClock(watch, digest.times, settings.clock, now);
    if (settings.schema && digest.columns) {
      this.judgeColumns(watch, digest.columns.first, now);
      if (digest.columns.last) this.judgeColumns(watch, digest.columns.last, now);
    }
  }

  /** The gap check, and schema findings that have stood long enough. */
  tick(): void {
    const now = this.now();
    for (const watch of this.streams.values()) {
      const gap = watch.settings.gap;
      const after = gap === null ? undefined : gap === 'usual' ? usualGapMs(watch.interval) : gap.afterSeconds * 1000;
      const quiet = now - watch.lastRecord;
      if (after !== undefined && quiet >= after) this.raise(watch, 'gap', null, watch.lastRecord, words.gap(quiet, watch.interval.usualMs()));
      const schema = watch.findings.get(findingKey('schema', null));
      if (schema && now - schema.since >= SCHEMA_FINDING_MS) this.close(watch, schema, now, `the new columns are the usual ones after ${duration(now - schema.since)}`);
    }
  }

  /** GET /v1/streams: the stream's open findings, oldest first. */
  findings(stream: StreamKey): QualityFinding[] {
    this.restore();
    const watch = this.streams.get(streamId(stream.asset, stream.stream_type));
    if (!watch) return [];
    return [...watch.findings.values()].sort((a, b) => a.since - b.since).map((f) => ({ check: f.check, field: f.field, since: new Date(f.since).toISOString(), detail: f.detail, code: f.code ?? `quality.${f.check}_text`, params: f.params ?? { text: f.detail } }));
  }

  /** GET /metrics: open findings per stream and check (0 for checks whose findings closed in this run). */
  counts(): { asset: string; stream_type: string; check: Check; count: number }[] {
    this.restore();
    const out: { asset: string; stream_type: string; check: Check; count: number }[] = [];
    for (const watch of this.streams.values()) {
      const byCheck = new Map<Check, number>([...watch.fired].map((check) => [check, 0]));
      for (const f of watch.findings.values()) byCheck.set(f.check, (byCheck.get(f.check) ?? 0) + 1);
      for (const [check, count] of byCheck) out.push({ asset: watch.stream.asset, stream_type: watch.stream.stream_type, check, count });
    }
    return out;
  }

  /** Findings open at some time since `fromMs` (the history), from the store; [] when it cannot be read. */
  history(fromMs: number): StoredFinding[] {
    return this.safely(() => this.options.store?.since(fromMs)) ?? [];
  }

  private judgeRuns(watch: StreamWatch, field: string, fd: FieldDigest, stuck: NonNullable<QualitySettings['stuck']>): void {
    const lead = fd.lead!;
    let run = watch.runs.get(field);
    if (run && run.value === lead.value) {
      run.count += lead.count;
      run.to = lead.to;
    } else {
      if (run) this.runEnded(watch, field, run, stuck);
      run = { ...lead };
    }
    if (!fd.whole) {
      this.runEnded(watch, field, run, stuck);
      if (fd.longest) this.runEnded(watch, field, fd.longest, stuck);
      run = { ...fd.trail! };
    }
    if (!watch.runs.has(field) && watch.runs.size >= MAX_WATCHED_FIELDS) return;
    watch.runs.set(field, run);
    if (run.count >= stuck.minRecords && run.to - run.from >= stuck.afterSeconds * 1000)
      this.raise(watch, 'stuck', field, run.from, words.stuck(field, run.value, run.to - run.from, run.count));
  }

  /** A run of one value ended (the value changed): its finding closes, or one long enough inside a batch opens and closes. */
  private runEnded(watch: StreamWatch, field: string, run: ValueRun, stuck: NonNullable<QualitySettings['stuck']>): void {
    const detail = words.stuck(field, run.value, run.to - run.from, run.count);
    if (!watch.findings.has(findingKey('stuck', field)) && run.count >= stuck.minRecords && run.to - run.from >= stuck.afterSeconds * 1000)
      this.raise(watch, 'stuck', field, run.from, detail);
    this.closeIf(watch, 'stuck', field, run.to, `${field} reads another value`);
  }

  private judgeRange(watch: StreamWatch, field: string, out: NonNullable<FieldDigest['out']>, range: [number, number], now: number): void {
    const open = watch.findings.get(findingKey('range', field));
    if (out.count > 0) {
      const total = out.count + (open?.records ?? 0);
      this.raise(watch, 'range', field, now, words.range(field, out.worst, range, total)).records = total;
    }
    if (!out.last) this.closeIf(watch, 'range', field, now, `${field} is back in [${range[0]}, ${range[1]}]`);
  }

  private judgeClock(watch: StreamWatch, times: { min: number; max: number }, clock: NonNullable<QualitySettings['clock']>, now: number): void {
    if (times.max - now > clock.maxAheadSeconds * 1000) this.raise(watch, 'clock', null, now, words.ahead(times.max, times.max - now));
    else if (clock.maxBehindSeconds !== null && now - times.min > clock.maxBehindSeconds * 1000) this.raise(watch, 'clock', null, now, words.behind(times.min, now - times.min));
    else this.closeIf(watch, 'clock', null, now, 'record times agree with this PC\'s clock again');
  }

  private judgeColumns(watch: StreamWatch, columns: string[], now: number): void {
    const same = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((c, i) => c === b[i]));
    const before = watch.columns;
    watch.columns = columns;
    if (!before || same(before, columns)) return;
    const open = watch.findings.get(findingKey('schema', null));
    if (open) this.close(watch, open, now, open.before && same(open.before, columns) ? 'the columns are back as they were' : 'the columns changed again');
    if (open?.before && same(open.before, columns)) return;
    this.raise(watch, 'schema', null, now, words.schema(before, columns)).before = before;
  }

  /** Opens the finding, or keeps its words current when it is open. */
  private raise(watch: StreamWatch, check: Check, field: string | null, since: number, said: AgentMessage): Finding {
    const key = findingKey(check, field);
    const open = watch.findings.get(key);
    const detail = said.text;
    if (open) {
      Object.assign(open, { detail, code: said.code, params: said.params });
      return open;
    }
    const id = streamId(watch.stream.asset, watch.stream.stream_type);
    const finding: Finding = { id: undefined, check, field, since, detail, code: said.code, params: said.params, records: 0 };
    finding.id = this.safely(() => this.options.store?.open({ asset: watch.stream.asset, stream_type: watch.stream.stream_type, check_name: check, field, since, detail }));
    watch.findings.set(key, finding);
    watch.fired.add(check);
    this.options.logger.warn(`Data quality of ${id}: ${check}${field === null ? '' : ` (${field})`}: ${detail}.`);
    return finding;
  }

  private closeIf(watch: StreamWatch, check: Check, field: string | null, at: number, why: string): void {
    const open = watch.findings.get(findingKey(check, field));
    if (open) this.close(watch, open, Math.max(at, open.since), why);
  }

  private close(watch: StreamWatch, finding: Finding, at: number, why: string): void {
    watch.findings.delete(findingKey(finding.check, finding.field));
    this.keep(finding, at);
    const id = streamId(watch.stream.asset, watch.stream.stream_type);
    this.options.logger.info(`Data quality of ${id}: ${finding.check}${finding.field === null ? '' : ` (${finding.field})`} ended after ${duration(at - finding.since)}: ${why}. It was: ${finding.detail}.`);
  }

  private keep(finding: Finding, until: number | null): void {
    if (finding.id === undefined) return;
    this.safely(() => {
      this.options.store?.update(finding.id!, until, finding.detail);
      if (until !== null) this.options.store?.prune(until - DAY_MS);
    });
  }

  /** The open findings of the last run, once. */
  private restore(): void {
    if (this.restored) return;
    this.restored = true;
    for (const stored of this.safely(() => this.options.store?.openFindings()) ?? []) {
      const watch = this.watch({ asset: stored.asset, stream_type: stored.stream_type });
      const check = stored.check_name as Check;
      watch.findings.set(findingKey(check, stored.field), { id: stored.id, check, field: stored.field, since: stored.since, detail: stored.detail, records: 0 });
    }
  }

  private watch(stream: StreamKey): StreamWatch {
    const id = streamId(stream.asset, stream.stream_type);
    let watch = this.streams.get(id);
    if (!watch) {
      watch = { stream: { asset: stream.asset, stream_type: stream.stream_type }, settings: qualitySettingsFor(this.entries, id), runs: new Map(), columns: undefined, interval: new UsualInterval(), lastRecord: this.now(), findings: new Map(), fired: new Set() };
      this.streams.set(id, watch);
    }
    return watch;
  }

  private safely<T>(work: () => T): T | undefined {
    try {
      const result = work();
      this.storeFailed = false;
      return result;
    } catch (cause) {
      if (!this.storeFailed) this.options.logger.error(`Data-quality findings could not be kept (they are watched all the same): ${(cause as Error).message}`);
      this.storeFailed = true;
      return undefined;
    }
  }
}
