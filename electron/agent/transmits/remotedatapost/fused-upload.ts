/**
 * The fused path of a file chunk, for the common case: plain CSV rows (parsers/spreadsheet/
 * plain-rows.ts) written straight into upload bodies (row-documents.ts), without a row object, a
 * record object, a transform pass or a sort of record objects in between: a ChunkFastPath
 * (components/chunk-fast-path.ts) that the parse thread's root (threads/parse-thread-root.ts) wires in.
 * It takes a chunk only when the result is exactly what the general path (parseChunk → records →
 * BatchCommitter.commit) makes of it: every transmit of the stream is a remotedatapost (upload
 * bodies), the transforms are renames (applied once to the column names) and convert_timestamps of
 * columns the parser already wrote as ISO UTC (which it keeps as they are), and no record tap
 * waits for the records. Otherwise, or when the chunk is not plain, it declines (null) and the
 * caller takes the general path, which stays the reference: fused-upload.property.test.ts compares the two
 * byte for byte over generated files and configurations.
 */
import { BSON } from 'bson';
import type { Parser } from '../../../../shared/config/schema.js';
import { type AgentRecord, type FieldValue, isoFromMicros } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';
import { cellValue } from '../../parsers/spreadsheet/cell-values.js';
import { MAX_PLAIN_MICROS, type PlainRowReader, type PlainRowVisitor, createPlainRowReader } from '../../parsers/spreadsheet/plain-rows.js';
import type { SpreadsheetState } from '../../parsers/spreadsheet/spreadsheet-parser.js';
import { type ConvertTimestampsConfig, convertedFields } from '../../transforms/convert-timestamps/convert-timestamps-transform.js';
import { prototypesArePatched } from './record-bson.js';
import { RowDocumentWriter, layoutFits } from './row-documents.js';
import { UPLOAD_OUTBOX, batchesOfDocuments } from './upload-outbox.js';
import type { CommitPlan } from '../../components/commit-plan.js';
import type { EncodedCommit, PlanPreparer } from '../../components/chunk-fast-path.js';
import type { ChunkFastPath, FastChunk, FastRead } from '../../components/chunk-fast-path.js';
import { DigestBuilder, type QualityDigest, watchedFields } from '../../components/quality-digest.js';

/** How the plan's transforms leave the columns: a field per output key, in the records' key order. */
interface Layout {
  keys: string[];
  /** Per key: the header column its value comes from. */
  columns: number[];
  /** Per key: the time column (index into the reader's timeColumns) whose instant it holds, or -1. */
  times: number[];
}

interface FusedPlan {
  /** The plan's transforms: renames to apply to column names, convert_timestamps fields to check. */
  steps: ({ rename: (fieldvalues: Record<string, FieldValue>) => Record<string, FieldValue> } | { converted: string[] })[];
  stageNames: string[];
  routes: { transmit: string; codec: OutboxCodec; maxRequestRecords: number }[];
}

const MARKER = '\0fused-column:';
const CACHE_LIMIT = 1000;

// The loops over a chunk's documents are functions of their own: V8 then compiles these small
// loops, not encode() with the gzip and BSON code it calls inlined (~50 ms of compiling a thread).

/** Whether the documents' times are in order already (a file's usually are). */
function inOrder(keys: Float64Array, count: number): boolean {
  for (let i = 1; i < count; i += 1) if (keys[i]! < keys[i - 1]!) return false;
  return true;
}

/** Document boundaries in the bytes laid out in `order` (null: as written). */
function documentEnds(ends: Uint32Array, order: number[] | null, count: number): Uint32Array {
  const sortedEnds = new Uint32Array(count);
  for (let k = 0, at = 0; k < count; k += 1) {
    const i = order ? order[k]! : k;
    at += ends[i]! - (i === 0 ? 0 : ends[i - 1]!);
    sortedEnds[k] = at;
  }
  return sortedEnds;
}

export class FusedUploadPath implements ChunkFastPath<SpreadsheetState> {
  private readonly plans = new Map<string, FusedPlan | null>();
  private readonly readers = new Map<string, PlainRowReader | null>();
  private readonly layouts = new Map<string, Layout | null>();
  /** Files (by plan and path) whose chunks were not plain once: the general path reads the rest. */
  private readonly declined = new Set<string>();
  private ends = new Uint32Array(4096);
  private keys = new Float64Array(4096);
  private lines = new Float64Array(4096);
  /** The documents' memory, reused chunk after chunk (only the compressed bodies leave a chunk). */
  private scratch: Buffer = Buffer.allocUnsafe(512 * 1024);
  /** What `visit` writes the chunk's rows with: set for each read (one visitor for every chunk). */
  private readonly rows = { writer: null as RowDocumentWriter | null, columns: [] as number[], timeOf: [] as number[], timeRoom: 0, hasTime: false, now: 0, count: 0, digest: null as DigestBuilder | null, slots: [] as number[] };
  /**
   * Writes one plain row as a document. One function for every chunk, not a closure per read: the
   * reader's optimized code calls the same target each time (a closure per read deoptimized it,
   * and every parse thread compiled it again and again).
   */
  private readonly visit: PlainRowVisitor = (bytes, cellStarts, cells, line, times) => {
    const { columns, timeOf, now } = this.rows;
    // Set by read() for as long as the reader calls this.
    const writer = this.rows.writer!;
    const timestamp = this.rows.hasTime && times[0] === times[0] ? times[0]! : now;
    const lineBytes = cellStarts[cells]! - 1 - cellStarts[0]!;
    // Lines past 16^12, or documents near js-bson's size limits (which the record path hands to js-bson): not here.
    if (line >= 2 ** 48 || lineBytes > 1024 * 1024) return false;
    // 3 bytes a byte of the line at most: a byte decodes to at most one code unit (U+FFFD for a bad one).
    writer.begin(writer.fixedBytes + this.rows.timeRoom + 3 * lineBytes, Math.floor(timestamp / 1000), Math.floor(now / 1000), line);
    const fieldCount = columns.length;
    const digest = this.rows.digest;
    for (let f = 0; f < fieldCount; f += 1) {
      const t = timeOf[f]!;
      if (t >= 0) {
        const micros = times[t]!;
        if (micros === micros) writer.isoValue(f, micros);
        else writer.value(f, null);
        continue;
      }
      const c = columns[f]!;
      const start = cellStarts[c]!;
      const end = cellStarts[c + 1]! - 1;
      // The data-quality watch's fields (a stream with stuck or range checks only) need the value itself.
      const watched = digest !== null && this.rows.slots[f]! >= 0;
      if (!watched && writer.cell(f, bytes, start, end)) continue;
      const text = bytes.toString('utf8', start, end);
      const value = cellValue(text);
      writer.value(f, value);
      if (watched) digest.value(this.rows.slots[f]!, value, this.rows.count);
    }
    this.push(this.rows.count++, writer.end(), timestamp, line);
    return true;
  };

  constructor(private readonly committer: PlanPreparer) {}

  /**
   * The chunk read and encoded for commitEncoded, or null: this plan, parser or chunk is not for the
   * fused path (nothing was done that the general path would have to undo).
   */
  read(input: FastChunk<SpreadsheetState>): FastRead<SpreadsheetState> | null {
    const { plan, parser, path, bytes: chunk, state, final, recordIdPrefix, nowMicros } = input;
    if (state.header === null || nowMicros < 0n || nowMicros > BigInt(MAX_PLAIN_MICROS)) return null;
    const fileKey = `${plan.id}\0${path}`;
    if (this.declined.has(fileKey)) return null;
    const fused = this.planOf(plan);
    const reader = fused && this.readerOf(parser);
    const layout = reader && this.layoutOf(plan.id, fused, reader, state.header);
    if (!fused || !reader || !layout || prototypesArePatched()) return null;
    const now = Number(nowMicros);
    const writer = new RowDocumentWriter(plan.stream.asset, plan.stream.stream_type, layout.keys, recordIdPrefix, this.scratch);
    const rows = this.rows;
    rows.writer = writer;
    rows.columns = layout.columns;
    rows.timeOf = layout.times;
    rows.timeRoom = 32 * reader.timeColumns.length;
    rows.hasTime = reader.timeColumns.length > 0;
    rows.now = now;
    rows.count = 0;
    const watched = plan.quality ? watchedFields(plan.quality, layout.keys) : null;
    rows.digest = watched && plan.quality ? new DigestBuilder(plan.quality) : null;
    if (watched && rows.digest) {
      rows.digest.start(watched);
      rows.slots = layout.keys.map((key) => watched.indexOf(key));
    }
    let parsed: FastRead<SpreadsheetState>['parsed'] | null;
    try {
      parsed = reader.read(chunk, state, final, this.visit);
    } finally {
      // The writer's memory is kept as this.scratch, not through the visitor's state.
      rows.writer = null;
    }
    const digest = rows.digest;
    rows.digest = null;
    const count = rows.count;
    this.scratch = writer.bytes;
    if (parsed === null) {
      if (this.declined.size >= CACHE_LIMIT) this.declined.clear();
      this.declined.add(fileKey);
      return null;
    }
    const encoded = this.encode(fused, writer, count, now);
    if (plan.quality && count > 0) encoded.quality = this.digest(plan.quality, digest, layout.keys, count);
    return { parsed, encoded };
  }

  /** The data-quality digest of the chunk's documents (their times are this.keys, in µs). */
  private digest(settings: NonNullable<CommitPlan['quality']>, builder: DigestBuilder | null, keys: readonly string[], count: number): QualityDigest {
    const times = this.keys;
    let span: QualityDigest['times'];
    if (settings.clock) {
      let min = times[0]!;
      let max = min;
      for (let i = 1; i < count; i += 1) {
        const t = times[i]!;
        if (t < min) min = t;
        else if (t > max) max = t;
      }
      span = { min: Math.floor(min / 1000), max: Math.floor(max / 1000) };
    }
    const columns = settings.schema ? { first: [...keys].sort() } : undefined;
    return (builder ?? new DigestBuilder(settings)).finish(count, (row) => Math.floor(times[row]! / 1000), columns, span);
  }

  private push(index: number, end: number, timestamp: number, line: number): void {
    if (index === this.ends.length) {
      const grow = <T extends Uint32Array | Float64Array>(array: T, bigger: T): T => (bigger.set(array), bigger);
      this.ends = grow(this.ends, new Uint32Array(index * 2));
      this.keys = grow(this.keys, new Float64Array(index * 2));
      this.lines = grow(this.lines, new Float64Array(index * 2));
    }
    this.ends[index] = end;
    this.keys[index] = timestamp;
    this.lines[index] = line;
  }

  /** The documents in upload order (by time, then record_id: line), split and compressed as UPLOAD_OUTBOX does. */
  private encode(fused: FusedPlan, writer: RowDocumentWriter, count: number, now: number): EncodedCommit {
    const { ends, keys, lines } = this;
    const stages = count === 0 ? [] : fused.stageNames.map((stage) => ({ stage, problems: [] }));
    const encoded: EncodedCommit = { read: count, records: count, reports: stages, routes: [], history: [] };
    if (count === 0) {
      encoded.routes = fused.routes.map((route) => ({ transmit: route.transmit, codec: route.codec, batches: [] }));
      return encoded;
    }
    encoded.lastTimestamp = isoFromMicros(keys[count - 1]!);
    let bytes = writer.bytes.subarray(0, writer.length);
    let order: number[] | null = null;
    if (!inOrder(keys, count)) {
      // ISO texts of the same width sort as their instants; equal times by record_id, i.e. by line.
      order = Array.from({ length: count }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || lines[a]! - lines[b]!);
      const copy = Buffer.allocUnsafe(writer.length);
      let at = 0;
      for (const i of order) at += bytes.copy(copy, at, i === 0 ? 0 : ends[i - 1]!, ends[i]);
      bytes = copy;
    }
    const sortedEnds = documentEnds(ends, order, count);
    const payloads = new Map<number, EncodedBatch[]>();
    for (const route of fused.routes) {
      let batches = payloads.get(route.maxRequestRecords);
      if (!batches) {
        const recordAt = (k: number) => this.recordAt(bytes, sortedEnds, k, keys[order ? order[k]! : k]!, now);
        batches = batchesOfDocuments(bytes, sortedEnds, count, route.maxRequestRecords, recordAt);
        payloads.set(route.maxRequestRecords, batches);
      }
      encoded.routes.push({ transmit: route.transmit, codec: route.codec, batches });
    }
    return encoded;
  }

  /** A batch's first or last record (the KPI history keeps its time range and ids), read back from its document. */
  private recordAt(bytes: Buffer, ends: Uint32Array, k: number, timestamp: number, now: number): AgentRecord {
    const doc = BSON.deserialize(bytes.subarray(k === 0 ? 0 : ends[k - 1]!, ends[k]));
    return {
      asset: doc.asset as string,
      stream_type: doc.stream_type as string,
      timestamp: isoFromMicros(timestamp),
      capturetime: isoFromMicros(now),
      fieldvalues: doc.fieldvalues as AgentRecord['fieldvalues'],
      record_id: doc.record_id as string,
    };
  }

  private planOf(plan: CommitPlan): FusedPlan | null {
    let fused = this.plans.get(plan.id);
    if (fused !== undefined) return fused;
    fused = this.buildPlan(plan);
    if (this.plans.size >= CACHE_LIMIT) this.plans.clear();
    this.plans.set(plan.id, fused);
    return fused;
  }

  private buildPlan(plan: CommitPlan): FusedPlan | null {
    if (plan.returnRecords || plan.routes.length === 0) return null;
    const prepared = this.committer.prepare(plan);
    const routes: FusedPlan['routes'] = [];
    for (const route of prepared.routes) {
      const max = (route.options as { maxRequestRecords?: unknown } | null)?.maxRequestRecords;
      if (route.codec !== UPLOAD_OUTBOX || typeof max !== 'number') return null;
      routes.push({ transmit: route.transmit, codec: route.codec, maxRequestRecords: max });
    }
    const steps: FusedPlan['steps'] = [];
    let stage = 0;
    for (const { name, config } of plan.transforms) {
      // A type this build has no transform for passes records unchanged (BatchCommitter.prepare).
      if (prepared.stages[stage]?.name !== name) continue;
      const { transform } = prepared.stages[stage++]!;
      if (config.transform_type === 'rename') {
        steps.push({ rename: (fieldvalues) => transform.apply([{ asset: '', stream_type: '', timestamp: '', capturetime: '', record_id: '', fieldvalues }]).records[0]!.fieldvalues });
      } else if (config.transform_type === 'convert_timestamps') {
        // The registry built a convert_timestamps transform from it: the configuration has its shape.
        steps.push({ converted: convertedFields(config as ConvertTimestampsConfig) });
      } else {
        return null;
      }
    }
    return { steps, stageNames: prepared.stages.map((s) => s.name), routes };
  }

  private readerOf(parser: Parser): PlainRowReader | null {
    const key = JSON.stringify(parser);
    let reader = this.readers.get(key);
    if (reader === undefined) {
      reader = createPlainRowReader(parser);
      // The same name twice among the time columns: the general path's last write wins; not here.
      if (reader && new Set(reader.timeColumns).size !== reader.timeColumns.length) reader = null;
      if (this.readers.size >= CACHE_LIMIT) this.readers.clear();
      this.readers.set(key, reader);
    }
    return reader;
  }

  /**
   * The transforms applied to a record of this header whose values name their columns: renames
   * move them, convert_timestamps must find parser time columns (which it leaves as they are).
   */
  private layoutOf(planId: string, fused: FusedPlan, reader: PlainRowReader, header: readonly string[]): Layout | null {
    const key = `${planId}\0${reader.timeColumns.join('\0')}\0${header.join('\0')}`;
    let layout = this.layouts.get(key);
    if (layout !== undefined) return layout;
    layout = null;
    // Built as the parser builds a row: names in header order into an object (integer-like names first).
    let probe: Record<string, FieldValue> = {};
    for (let c = 0; c < header.length; c += 1) probe[header[c]!] = `${MARKER}${c}`;
    const timeIndex = (value: FieldValue | undefined) => (typeof value === 'string' && value.startsWith(MARKER) ? reader.timeColumns.indexOf(header[Number(value.slice(MARKER.length))]!) : -1);
    let fits = true;
    for (const step of fused.steps) {
      if ('rename' in step) probe = step.rename(probe);
      else if (!step.converted.every((field) => Object.hasOwn(probe, field) && timeIndex(probe[field]) >= 0)) fits = false;
    }
    const keys: string[] = [];
    const columns: number[] = [];
    const times: number[] = [];
    for (const name in probe) {
      const value = probe[name];
      if (typeof value !== 'string' || !value.startsWith(MARKER)) fits = false;
      keys.push(name);
      columns.push(Number((value as string).slice(MARKER.length)));
      times.push(timeIndex(value));
    }
    if (fits && layoutFits(keys)) layout = { keys, columns, times };
    if (this.layouts.size >= CACHE_LIMIT) this.layouts.clear();
    this.layouts.set(key, layout);
    return layout;
  }
}
