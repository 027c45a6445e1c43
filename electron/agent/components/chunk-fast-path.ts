/**
 * A fast path of a file chunk: for one common case that a parser and a transmit know together (e.g.
 * plain CSV rows written straight into remotedatapost upload bodies:
 * transmits/remotedatapost/fused-upload.ts), the chunk read and encoded for
 * BatchCommitter.commitEncoded without the row and record objects of the general path. The parse
 * thread's root (threads/parse-thread-root.ts) wires the concrete ones; the chunk handler asks them
 * first and takes the general path (parseChunk → records → BatchCommitter.commit) when they
 * decline. A fast path must make byte for byte what the general path makes of the chunk, or
 * decline.
 */
import type { Parser } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { CommitPlan, StageReport } from './commit-plan.js';
import type { EncodedBatch, OutboxCodec, RecordTransform } from './contract.js';
import type { QualityDigest } from './quality-digest.js';

/**
 * A chunk as a fast path gets it: its bytes, where it comes from, and the parser's state before it.
 */
export interface FastChunk<TState> {
  plan: CommitPlan;
  parser: Parser;
  /** The file's path (a fast path may remember files whose chunks it declined). */
  path: string;
  bytes: Buffer;
  state: TState;
  /** The file is complete and this chunk reaches its end. */
  final: boolean;
  /** Prefix of the record ids of this file (receivers/file-source/record-ids.ts). */
  recordIdPrefix: string;
  /** The main thread's clock: capture time. */
  nowMicros: bigint;
}

/**
 * What a fast path made of a chunk: rows read, bytes consumed, the parser's state after them, the
 * commit.
 */
export interface FastRead<TState> {
  parsed: { rows: number; consumedBytes: number; state: TState };
  encoded: EncodedCommit;
}

export interface ChunkFastPath<TState> {
  /**
   * The chunk read and encoded, or null: this plan, parser or chunk is not for this path (nothing
   * was done that the general path would have to undo).
   */
  read(chunk: FastChunk<TState>): FastRead<TState> | null;
}

/** A batch transformed and encoded for each transmit of its plan, ready to commit. */
export interface EncodedCommit {
  read: number;
  records: number;
  lastTimestamp?: string;
  reports: StageReport[];
  routes: { transmit: string; codec: OutboxCodec; batches: EncodedBatch[] }[];
  tapped?: AgentRecord[];
  /**
   * The records for the KPI history when no transmit's codec is kept by it (the history keeps the
   * first such transmit's batches otherwise, and the fused path only takes plans that have one).
   */
  history: readonly AgentRecord[];
  quality?: QualityDigest;
}

/** A plan with its transforms built and its codecs looked up. */
export interface PreparedPlan {
  stages: { name: string; transform: RecordTransform }[];
  routes: { transmit: string; codec: OutboxCodec; options: unknown }[];
  limits: Map<string, number>;
}

/** What a fast path asks of the commit path: a plan's transforms built and codecs looked up. */
export interface PlanPreparer {
  prepare(plan: CommitPlan): PreparedPlan;
}

/** What the digest of a file's records takes (document-state.ts's RecordDigest). */
export interface LinesDigest {
  add(record: { text: string; fieldvalues: unknown }): void;
  addAscii(bytes: Uint8Array, start: number, end: number): void;
}

export interface FusedLinesRequest {
  plan: CommitPlan;
  parser: Parser;
  /** The file to read, and its name in places (markers). */
  file: string;
  name: string;
  /** Where the batch starts: the byte after the last committed record's line, and that line's number. */
  from: { byte: number; line: number };
  /** Records committed before (the first of this batch is number `records + 1`), their ids' prefix. */
  records: number;
  idPrefix: string;
  nowMicros: bigint;
  /** Records a batch holds at most (the reader's `next(max)`). */
  max: number;
  digest: LinesDigest;
}

export interface FusedLinesBatch {
  encoded: EncodedCommit;
  records: number;
  /** Lines that are not records, with their place (as the reader's takeProblems). */
  problems: string[];
  /** The reader would be at the end of the file after this batch. */
  done: boolean;
  /** After the batch's last record (absent without records). */
  resume?: { byte: number; line: number };
}

/**
 * The fast path of JSON Lines (transmits/remotedatapost/fused-json-lines.ts): the next batch of a
 * file's lines written straight into upload bodies, or null when it declines (the reader's general
 * path then reads the batch). Wired in by the parse thread's root, as ChunkFastPath.
 */
export interface LinesFastPath {
  read(request: FusedLinesRequest): FusedLinesBatch | null;
}
