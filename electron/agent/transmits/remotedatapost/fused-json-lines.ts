/**
 * The fused path of JSON Lines (parser_type "json", options.lines): a batch of lines read from the
 * file at the place the last one ended and written straight into upload bodies (json-line-scanner.ts),
 * without DocumentRecord or AgentRecord objects, ISO texts made and read back, or a sort of record
 * objects. The batch is the one the JSON Lines reader would return (json-reader.ts: the same lines,
 * the same cut), and every line the scanner does not take is read by the reader's own code
 * (readJsonLine) and encoded by record-bson's, so a file of odd lines is slower, never different.
 * It declines (null) what it cannot make exactly as the general path (DocumentHandler → commit):
 * transforms, record taps, a transmit other than remotedatapost, the data-quality watch's per-field
 * checks, lines over MAX_LINE_BYTES, times outside 1970–2255, patched prototypes.
 * fused-json-lines.property.test.ts compares the two byte for byte over generated and hostile files.
 */
import fs from 'node:fs';
import type { Parser } from '../../../../shared/config/schema.js';
import { type AgentRecord, isoFromMicros, isoMicros } from '../../../../shared/records/record.js';
import type { EncodedBatch } from '../../components/contract.js';
import type { CommitPlan } from '../../components/commit-plan.js';
import type { EncodedCommit, FusedLinesBatch, FusedLinesRequest, LinesFastPath, PlanPreparer } from '../../components/chunk-fast-path.js';
import { DigestBuilder, type QualityDigest } from '../../components/quality-digest.js';
import { ASSET, CAPTURETIME, FIELDVALUES, RECORD_ID, STREAM_TYPE, TIMESTAMP, encodeRecord, prototypesArePatched, putBytes, putDate, putInt32, putString } from './record-bson.js';
import { UPLOAD_OUTBOX, batchesOfDocuments } from './upload-outbox.js';
import { DOCUMENT_LIMITS } from '../../parsers/document/document-reader.js';
import { type DocumentTimes, createDocumentTimes } from '../../parsers/document/document-times.js';
import { MAX_PLAIN_MICROS } from '../../parsers/spreadsheet/plain-rows.js';
import { readJsonLine } from '../../parsers/json/json-reader.js';
import { LineScanner } from './json-line-scanner.js';

/** Longest line taken (longer ones, up to the reader's 16 MiB, are the general path's). */
const MAX_LINE_BYTES = 1024 * 1024;
/** Bytes of one batch's lines held at once (a batch of 4,000 lines is ~0.5 MB; blank lines do not count toward it). */
const MAX_REGION_BYTES = 32 * 1024 * 1024;
const READ_BYTES = 256 * 1024;
const CACHE_LIMIT = 1000;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

export type { FusedLinesBatch, FusedLinesRequest, LinesDigest } from '../../components/chunk-fast-path.js';

interface Routes {
  routes: { transmit: string; codec: typeof UPLOAD_OUTBOX; maxRequestRecords: number }[];
}

interface Parsing {
  times: DocumentTimes;
  scanner: LineScanner;
}

/** A batch this path does not make as the general path would: nothing is committed, the general path reads it. */
class Decline extends Error {}

/** A document's start up to its fields, the same in every document of a batch but for the times and the record number. */
function documentTemplate(asset: string, streamType: string, idPrefix: string, capturetimeMs: number): { bytes: Buffer; timestampAt: number; numberAt: number } {
  const bytes = Buffer.alloc(160 + 3 * (asset.length + streamType.length + idPrefix.length));
  let pos = putString(bytes, putBytes(bytes, 4, ASSET), asset);
  pos = putString(bytes, putBytes(bytes, pos, STREAM_TYPE), streamType);
  pos = putBytes(bytes, pos, TIMESTAMP);
  const timestampAt = pos;
  pos = putDate(bytes, putBytes(bytes, pos + 8, CAPTURETIME), capturetimeMs);
  pos = putBytes(bytes, pos, RECORD_ID);
  const prefix = Buffer.from(idPrefix, 'utf8');
  putInt32(bytes, pos, prefix.length + 13);
  pos = putBytes(bytes, pos + 4, prefix);
  const numberAt = pos;
  bytes[pos + 12] = 0;
  pos = putBytes(bytes, pos + 13, FIELDVALUES);
  return { bytes: bytes.subarray(0, pos), timestampAt, numberAt };
}

/** record-ids.ts's recordIdOf: the prefix and the record's number as 12 hex digits. */
function recordId(prefix: string, n: number): string {
  return prefix + n.toString(16).padStart(12, '0');
}

export class FusedJsonLines implements LinesFastPath {
  private readonly plans = new Map<string, Routes | null>();
  private readonly parsers = new Map<string, Parsing | null>();
  /** The batch's bytes from its first line on, reused batch after batch (one byte spare, for a last newline). */
  private region: Buffer = Buffer.allocUnsafe(READ_BYTES + 1);
  /** The documents' memory, reused (only the compressed bodies leave a batch). */
  private out: Buffer = Buffer.allocUnsafe(1024 * 1024);
  /** Per document: its end in `out`, its time (µs), its line's start and end in `region`. */
  private ends = new Float64Array(4096);
  private keys = new Float64Array(4096);
  private starts = new Float64Array(4096);
  private stops = new Float64Array(4096);

  constructor(private readonly committer: PlanPreparer) {}

  /** The next batch of the file encoded for commitEncoded, or null (nothing done: the general path reads it). */
  read(request: FusedLinesRequest): FusedLinesBatch | null {
    const { plan, nowMicros } = request;
    if (nowMicros < 0n || nowMicros > BigInt(MAX_PLAIN_MICROS) || prototypesArePatched()) return null;
    const routes = this.routesOf(plan);
    const parsing = routes && this.parsingOf(request.parser);
    if (!routes || !parsing) return null;
    let fd: number | undefined;
    try {
      fd = fs.openSync(request.file, 'r');
      return this.readLines(request, routes, parsing, fd);
    } catch {
      // Not for this path (Decline), or js-bson refused a record, or the file cannot be read: the
      // general path does it again and answers as it does.
      return null;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  private readLines(request: FusedLinesRequest, routes: Routes, parsing: Parsing, fd: number): FusedLinesBatch {
    const { plan, max, digest, from } = request;
    const size = fs.fstatSync(fd).size;
    const now = Number(request.nowMicros);
    const template = documentTemplate(plan.stream.asset, plan.stream.stream_type, request.idPrefix, Math.floor(now / 1000));
    const scanner = parsing.scanner;
    const capturetime = isoFromMicros(now);
    const problems: string[] = [];
    let region = this.region;
    let filled = 0;
    let atEnd = from.byte >= size;
    let pos = 0;
    let line = from.line;
    let count = 0;
    let chars = 0;
    let done = false;
    let resume: { byte: number; line: number } | undefined;
    for (;;) {
      let nl = pos < filled ? region.indexOf(10, pos) : -1;
      if (nl >= filled) nl = -1;
      if (nl < 0) {
        if (filled - pos > MAX_LINE_BYTES) throw new Decline();
        if (!atEnd) {
          if (filled === region.length - 1) {
            if (region.length > MAX_REGION_BYTES) throw new Decline();
            const bigger = Buffer.allocUnsafe(2 * region.length);
            region.copy(bigger, 0, 0, filled);
            region = this.region = bigger;
          }
          const n = fs.readSync(fd, region, filled, Math.min(READ_BYTES, region.length - 1 - filled), from.byte + filled);
          filled += n;
          if (n === 0 || from.byte + filled >= size) atEnd = true;
          continue;
        }
        if (pos >= filled) {
          done = true;
          break;
        }
        // The last line, without a newline: one is written after it for the scanner (the spare byte).
        nl = filled;
      }
      region[nl] = 10;
      line += 1;
      const last = nl === filled;
      const number = request.records + count + 1;
      if (number >= 2 ** 48) throw new Decline();
      const docStart = this.room(count, template.bytes.length + 64 + 3 * (nl - pos));
      let time: number;
      this.out.set(template.bytes, docStart);
      scanner.out = this.out;
      scanner.pos = docStart + template.bytes.length + 4;
      if (scanner.scan(region, pos, nl)) {
        const out = (this.out = scanner.out);
        time = scanner.time === scanner.time ? scanner.time : now;
        putDate(out, docStart + template.timestampAt, Math.floor(time / 1000));
        writeNumber(out, docStart + template.numberAt, number);
        this.ends[count] = endDocument(out, docStart, docStart + template.bytes.length, scanner.pos);
        if (scanner.nonAscii) {
          const text = region.toString('utf8', pos, nl);
          digest.add({ text, fieldvalues: null });
          chars += text.length;
        } else {
          digest.addAscii(region, pos, nl);
          chars += nl - pos;
        }
      } else {
        this.out = scanner.out;
        const read = readJsonLine(region.toString('utf8', pos, nl), parsing.times);
        if (read === null || 'problem' in read) {
          if (read) problems.push(`${request.name} line ${line}: ${read.problem}`);
          pos = nl + 1;
          if (last) {
            done = true;
            break;
          }
          continue;
        }
        time = read.timestampMicros === null ? now : Number(read.timestampMicros);
        const timestamp = read.timestampMicros === null ? capturetime : isoMicros(read.timestampMicros);
        const document = encodeRecord({ asset: plan.stream.asset, stream_type: plan.stream.stream_type, timestamp, capturetime, fieldvalues: read.fieldvalues, record_id: recordId(request.idPrefix, number) });
        const at = this.room(count, document.length);
        document.copy(this.out, at);
        this.ends[count] = at + document.length;
        digest.add({ text: read.text, fieldvalues: null });
        chars += read.text.length;
      }
      // Times of the same width (1970–2255): their texts sort as their instants, as the general path sorts them.
      if (!Number.isSafeInteger(time) || time < 0 || time > MAX_PLAIN_MICROS) throw new Decline();
      this.keys[count] = time;
      this.starts[count] = pos;
      this.stops[count] = nl;
      count += 1;
      resume = { byte: last ? from.byte + filled : from.byte + nl + 1, line };
      pos = nl + 1;
      if (last) {
        done = true;
        break;
      }
      if (count >= max || chars >= DOCUMENT_LIMITS.batchChars) break;
    }
    const recordAt = (k: number): AgentRecord => {
      const read = readJsonLine(this.region.toString('utf8', this.starts[k], this.stops[k]), parsing.times);
      if (read === null || 'problem' in read) throw new Error('a record of the batch does not read again');
      const timestamp = read.timestampMicros === null ? capturetime : isoMicros(read.timestampMicros);
      return { asset: plan.stream.asset, stream_type: plan.stream.stream_type, timestamp, capturetime, fieldvalues: read.fieldvalues, record_id: recordId(request.idPrefix, request.records + k + 1) };
    };
    const encoded = this.encode(routes, count, recordAt);
    if (plan.quality && count > 0) encoded.quality = this.quality(plan.quality, count, recordAt);
    return { encoded, records: count, problems, done, ...(resume ? { resume } : {}) };
  }

  /** Room for a document of `bytes` after the first `count`: where it starts. */
  private room(count: number, bytes: number): number {
    const start = count === 0 ? 0 : this.ends[count - 1]!;
    if (start + bytes > this.out.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.out.length, start + bytes));
      this.out.copy(bigger, 0, 0, start);
      this.out = bigger;
    }
    if (count === this.ends.length) {
      const grow = (array: Float64Array) => {
        const bigger = new Float64Array(2 * count);
        bigger.set(array);
        return bigger;
      };
      this.ends = grow(this.ends);
      this.keys = grow(this.keys);
      this.starts = grow(this.starts);
      this.stops = grow(this.stops);
    }
    return start;
  }

  /** The documents in upload order (by time, then record_id), split and compressed as UPLOAD_OUTBOX does. */
  private encode(routes: Routes, count: number, recordAt: (k: number) => AgentRecord): EncodedCommit {
    const encoded: EncodedCommit = { read: count, records: count, reports: [], routes: [], history: [] };
    if (count === 0) {
      encoded.routes = routes.routes.map((route) => ({ transmit: route.transmit, codec: route.codec, batches: [] }));
      return encoded;
    }
    const { ends, keys } = this;
    encoded.lastTimestamp = isoFromMicros(keys[count - 1]!);
    let order: number[] | null = null;
    for (let k = 1; k < count && order === null; k += 1) if (keys[k]! < keys[k - 1]!) order = [];
    let bytes = this.out.subarray(0, ends[count - 1]);
    const sortedEnds = new Float64Array(count);
    if (order === null) {
      sortedEnds.set(ends.subarray(0, count));
    } else {
      // Equal times by record_id, i.e. by record number: the documents' order.
      order = Array.from({ length: count }, (_, k) => k).sort((a, b) => keys[a]! - keys[b]! || a - b);
      const copy = Buffer.allocUnsafe(bytes.length);
      let at = 0;
      for (let k = 0; k < count; k += 1) {
        const i = order[k]!;
        at += bytes.copy(copy, at, i === 0 ? 0 : ends[i - 1]!, ends[i]!);
        sortedEnds[k] = at;
      }
      bytes = copy;
    }
    const payloads = new Map<number, EncodedBatch[]>();
    for (const route of routes.routes) {
      let batches = payloads.get(route.maxRequestRecords);
      if (!batches) {
        batches = batchesOfDocuments(bytes, sortedEnds, count, route.maxRequestRecords, (k) => recordAt(order ? order[k]! : k));
        payloads.set(route.maxRequestRecords, batches);
      }
      encoded.routes.push({ transmit: route.transmit, codec: route.codec, batches });
    }
    return encoded;
  }

  /** quality-digest.ts's digestRecords for a stream without per-field checks: columns of the first and last record, the times' span. */
  private quality(settings: NonNullable<CommitPlan['quality']>, count: number, recordAt: (k: number) => AgentRecord): QualityDigest {
    let columns: QualityDigest['columns'];
    if (settings.schema) {
      const first = Object.keys(recordAt(0).fieldvalues).sort();
      const last = count > 1 ? Object.keys(recordAt(count - 1).fieldvalues).sort() : first;
      columns = first.length === last.length && first.every((name, i) => name === last[i]) ? { first } : { first, last };
    }
    let times: QualityDigest['times'];
    if (settings.clock) {
      let min = this.keys[0]!;
      let max = min;
      for (let k = 1; k < count; k += 1) {
        const t = this.keys[k]!;
        if (t < min) min = t;
        else if (t > max) max = t;
      }
      times = { min: Math.floor(min / 1000), max: Math.floor(max / 1000) };
    }
    return new DigestBuilder(settings).finish(count, () => 0, columns, times);
  }

  private routesOf(plan: CommitPlan): Routes | null {
    let routes = this.plans.get(plan.id);
    if (routes !== undefined) return routes;
    routes = null;
    const prepared = this.committer.prepare(plan);
    const quality = plan.quality;
    // Per-field checks (stuck, range) digest every record's values: the general path's work.
    const perField = quality && (quality.stuck || Object.keys(quality.range).length > 0);
    if (!plan.returnRecords && plan.routes.length > 0 && prepared.stages.length === 0 && !perField) {
      const list: Routes['routes'] = [];
      for (const route of prepared.routes) {
        const max = (route.options as { maxRequestRecords?: unknown } | null)?.maxRequestRecords;
        if (route.codec === UPLOAD_OUTBOX && typeof max === 'number') list.push({ transmit: route.transmit, codec: UPLOAD_OUTBOX, maxRequestRecords: max });
      }
      if (list.length === prepared.routes.length) routes = { routes: list };
    }
    if (this.plans.size >= CACHE_LIMIT) this.plans.clear();
    this.plans.set(plan.id, routes);
    return routes;
  }

  private parsingOf(parser: Parser): Parsing | null {
    const key = JSON.stringify(parser);
    let parsing = this.parsers.get(key);
    if (parsing !== undefined) return parsing;
    parsing = null;
    if (parser.parser_type === 'json' && parser.options?.lines === true && parser.options.record_path === undefined) {
      const timeFields = (parser.options.parse_timestamps ?? []).map((ts) => ts.field_name);
      // The same field twice: DocumentTimes reads it again as it wrote it; not the scanner's case.
      if (new Set(timeFields).size === timeFields.length) {
        const times = createDocumentTimes(parser.options);
        parsing = { times, scanner: new LineScanner(times, timeFields, this.out) };
      }
    }
    if (this.parsers.size >= CACHE_LIMIT) this.parsers.clear();
    this.parsers.set(key, parsing);
    return parsing;
  }
}

/** The record's number as 12 lower-case hex digits (below 16^12), 6 from each 24 bits. */
function writeNumber(buf: Buffer, at: number, n: number): void {
  const high = Math.floor(n / 16_777_216);
  const low = n - high * 16_777_216;
  for (let i = 0; i < 6; i += 1) {
    buf[at + 5 - i] = HEX[(high >>> (4 * i)) & 15]!;
    buf[at + 11 - i] = HEX[(low >>> (4 * i)) & 15]!;
  }
}

/** Ends a document whose fieldvalues start at `fieldsStart` and whose elements end at `pos`: its end. */
function endDocument(buf: Buffer, start: number, fieldsStart: number, pos: number): number {
  buf[pos++] = 0;
  putInt32(buf, fieldsStart, pos - fieldsStart);
  buf[pos++] = 0;
  putInt32(buf, start, pos - start);
  return pos;
}
