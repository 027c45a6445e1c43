/**
 * The contract of the agent's parts, and the types they share: what a receiver, transform or
 * transmit implements, what it is given, and how records travel from one to the other. A new
 * component reads this file and docs/architecture.md ("How to add a receiver, transform or
 * transmit"), nothing else.
 */
import type { AgentMessage } from '../../../shared/config/message.js';
import type { BackfillProgress, ComponentType, Marker, ServiceStatus } from '../../../shared/api/resources.js';
import type { Transform } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { Logger } from '../logging/logger.js';
import type { CommitPlan, CommitResult } from './commit-plan.js';
import type { ParseThreads } from './parse-protocol.js';
import type { StorageHealth } from '../disk/storage-health.js';
import type { WritePolicy } from '../disk/write-policy.js';
import type { Clock } from '../time/clock.js';

// ------------------------------------------------------------------ streams and progress

/** A stream: `asset:stream_type`. */
export interface StreamKey {
  asset: string;
  stream_type: string;
}

/** Read progress of one file of one stream. */
export interface FileProgress {
  path: string;
  size: number;
  mtimeMs: number;
  /** Bytes consumed: the next read starts here. */
  offset: number;
  /** Fingerprint of the file's first bytes: a changed fingerprint means the file was rewritten. */
  fingerprint: string;
  /** Parser state needed to continue (header, counter …), JSON. */
  parserState: string;
  /**
   * `start:length:hash` of the last bytes read before `offset` (file-reader.ts, tailOf): a file
   * replaced by one of the same size and the same first bytes is told apart by them. Empty: unknown.
   */
  tail?: string;
}

/**
 * One part of a file read by two parse threads at once (docs/decisions/0024-one-file-on-both-parse-threads.md):
 * the bytes [start, end), read up to `offset`, with its own parser state.
 */
export interface FilePart {
  start: number;
  end: number;
  offset: number;
  parserState: string;
}

/**
 * How far a source was read, committed in the same transaction as the records it produced: a file
 * position, a file part's position, or named values (SQL state fields, OPC UA tags).
 */
export interface CommitProgress {
  file?: FileProgress;
  /** A chunk of a split file: its part (by `start`) moves from `from` to `offset`; it must still be at `from`. */
  part?: { path: string; start: number; from: number; offset: number; parserState: string };
  state?: Record<string, string>;
}

// ------------------------------------------------------------------ what components are given

/*
 * The agent's parts as components use them: small interfaces that the classes behind them satisfy
 * structurally (pipeline/pipeline.ts, store/agent-store.ts, flow/transmit-stats.ts,
 * markers/marker-store.ts, workers/parse-worker-pool.ts). This file imports none of those classes, so
 * that the vocabulary every part shares depends on no part (docs/decisions/0054-no-import-circles.md).
 */

/** What a component uses to raise and clear markers on the streams it works on. */
export interface MarkerReporter {
  /**
   * Raises (or refreshes) a marker of this component on each given stream. A message with a code
   * (say()) is written in the console's language; a plain text gets the code marker.<category>.
   */
  raise(streams: readonly StreamKey[], level: Marker['level'], category: string, message: AgentMessage): void;
  /** Clears this component's markers of a category (all categories when omitted). */
  clear(category?: string, streams?: readonly StreamKey[]): void;
}

/** One batch of one stream, with how far its source was read. */
export interface StreamBatch {
  stream: StreamKey;
  records: AgentRecord[];
  progress: CommitProgress;
}

/** How far a file receiver has read a file: committed up to `bytesRead` of `size`. */
export interface ReadingProgress {
  bytesRead: number;
  size: number;
}

/** The outbox of a transmit is full: the receiver keeps its position and tries again later. */
export class BufferFullError extends Error {}

/** The pipeline as receivers and transmits use it. */
export interface ComponentPipeline {
  /** Commits one batch of a stream with how far it was read; throws BufferFullError when an outbox is full. */
  submit(receiver: string, stream: StreamKey, records: AgentRecord[], progress: CommitProgress): void;
  /** Batches of several streams read at one moment, in one transaction: per batch, why it was not committed. */
  submitAll(receiver: string, batches: readonly StreamBatch[]): (Error | undefined)[];
  /** submitAll() for polling receivers: committed within 100 ms together with other receivers' batches. */
  submitSoon(receiver: string, batches: readonly StreamBatch[]): Promise<(Error | undefined)[]>;
  /** File receivers: the plan a parse thread commits a chunk of the stream by. */
  plan(receiver: string, stream: StreamKey): CommitPlan;
  /** File receivers: what a parse thread committed (markers, logs, transmits woken); throws BufferFullError. */
  afterCommit(receiver: string, stream: StreamKey, result: CommitResult): void;
  /** File receivers: the file being read and how far (null: done), shown in GET /v1/streams. */
  reading(receiver: string, stream: StreamKey, path: string, progress: ReadingProgress | null): void;
  /** OPC UA history backfill of a stream: how far it is (null: done), and how many records it brought. */
  backfilling(receiver: string, stream: StreamKey, progress: BackfillProgress | null): void;
  backfilled(receiver: string, stream: StreamKey, count: number): void;
  /** Transmits: called with the transmit's name when records were queued for it; returns the unsubscribe. */
  onQueued(listener: (transmit: string) => void): () => void;
}

/** A file whose progress the store keeps, by stream. */
export interface StoredFile {
  asset: string;
  stream_type: string;
  path: string;
}

/** Read progress as receivers keep it beyond what they commit with their records. */
export interface ProgressStore {
  /** The database file (named in messages about a full disk). */
  readonly file: string;
  fileProgress(receiver: string, stream: StreamKey, filePath: string): FileProgress | undefined;
  /** Files of a stream whose first bytes have this fingerprint (`length:hash`): a file renamed since it was read. */
  filesByHead(receiver: string, stream: StreamKey, head: string): FileProgress[];
  /** The lengths of the stream's stored fingerprints in (above, upTo], in order. */
  fingerprintLengths(receiver: string, stream: StreamKey, above: number, upTo: number): Iterable<number>;
  moveFile(receiver: string, stream: StreamKey, from: string, to: string): void;
  forgetFile(receiver: string, stream: StreamKey, filePath: string): void;
  forgetFiles(receiver: string, files: readonly StoredFile[]): void;
  /** The receiver's stored files after `after`, in key order (pruning walks them page by page). */
  progressPage(receiver: string, after: StoredFile | undefined, limit: number): StoredFile[];
  /** Parts of a file read by two parse threads (docs/decisions/0024-one-file-on-both-parse-threads.md). */
  partsOf(receiver: string, stream: StreamKey, filePath: string): FilePart[];
  splitFile(
    receiver: string,
    stream: StreamKey,
    file: FileProgress,
    expectedOffset: number | undefined,
    parts: readonly FilePart[],
  ): boolean;
  mergeParts(
    receiver: string,
    stream: StreamKey,
    file: Omit<FileProgress, 'offset' | 'parserState'>,
    merge: (parts: FilePart[]) => { offset: number; parserState: string } | undefined,
  ): FileProgress | undefined;
  /** A named value committed with a stream's records (CommitProgress.state). */
  streamState(receiver: string, stream: StreamKey, key: string): string | undefined;
}

/** A stored outbox batch: its payload is read by the codec of its format (the transmit's). */
export interface OutboxBatch {
  id: number;
  transmit: string;
  asset: string;
  stream_type: string;
  /** Records in the payload. */
  records: number;
  bytes: number;
  format: string;
  payload: Buffer;
}

/** The outbox as a transmit reads and acknowledges its own batches. */
export interface OutboxReader {
  /** The database file (a thread that encodes bodies opens it too). */
  readonly file: string;
  /** The oldest batches, with their payloads. */
  peek(transmit: string, limit: number): OutboxBatch[];
  /** The oldest batches' ids and sizes, without their payloads. */
  peekMeta(transmit: string, limit: number): { id: number; records: number; bytes: number }[];
  payloadsOf(transmit: string, ids: readonly number[]): { id: number; format: string; payload: Buffer }[];
  /** Deletes delivered batches once no other thread holds the write lock. */
  ackWhenFree(transmit: string, ids: readonly number[], signal?: AbortSignal): Promise<void>;
  backlog(transmit: string): { batches: number; records: number; bytes: number };
  /** Another connection removed batches: the outbox size is read again when asked. */
  forgetQueued(transmit: string): void;
}

/** The agent's store as components see it: their progress, and the outbox. */
export type ComponentStore = ProgressStore & OutboxReader;

/** Where a transmit reports its deliveries (GET /v1/status, GET /metrics, the history). */
export interface DeliveryReporter {
  success(transmit: string, records: number, bytes: number): void;
  failure(transmit: string, said: string | AgentMessage): void;
  /** Something the transmit says about itself (e.g. its Sparkplug session), shown with its stats. */
  detail(transmit: string, key: string, value: unknown): void;
}

// ------------------------------------------------------------------ components

/** What the agent shares with every component it runs (one of each for the whole agent). */
export interface AgentServices {
  /** Where writes fail for lack of space (file receivers, csv output report here). */
  storage: StorageHealth;
  /** The parse threads every file receiver shares (started with the first, closed with the agent). */
  parseWorkers: ParseThreads;
  /** Where transmits may write files (the data directory and the operator's --allow-write folders). */
  writePolicy: WritePolicy;
  /** Unread bytes from which a complete local file is read by two parse threads (absent: never). */
  splitFileBytes?: number;
}

/** What every component gets from the supervisor. */
export interface ComponentContext {
  logger: Logger;
  markers: MarkerReporter;
  clock: Clock;
  /** Directory for this component's own files (certificates, caches). */
  dataDirectory: string;
  /**
   * Streams of the whole configuration this component works on (its own, or matched by
   * filter_stream). Kept current when a save changes the streams but not this component.
   */
  readonly streams: readonly StreamKey[];
  /** Root of the agent's data directory. */
  agentDataDirectory: string;
  /** Receivers hand what they read to the pipeline; transmits learn of queued records from it. */
  pipeline: ComponentPipeline;
  /** Progress and outbox. */
  store: ComponentStore;
  /** Transmits report deliveries here (status.last_data_transmit). */
  stats: DeliveryReporter;
  /** The records of a stored outbox batch, read with the codec that wrote it (its `format`). */
  decodeBatch(format: string, payload: Buffer): AgentRecord[];
  /** What the agent shares with all its components. */
  services: AgentServices;
  /**
   * An exception escaped one of the component's callbacks (a message, row or value handler): the
   * supervisor logs it with its stack and restarts this component alone; the agent runs on.
   * `during` says what it was doing ("handling a message on plant/press1").
   */
  fail(cause: unknown, during: string | AgentMessage): void;
}

/**
 * One receiver, transform or transmit, run as a service of the agent. `start` returns once the
 * component runs (or throws when it cannot); `stop` must finish within the supervisor's stop timeout
 * and be safe to call twice.
 */
export interface AgentComponent {
  readonly kind: ComponentType;
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): ServiceStatus;
  /** Receivers: forget the read progress of these streams, so their data is read and sent again. */
  purge?(streams: readonly StreamKey[]): Promise<void>;
}

/** Builds a component from its (parsed, defaults filled in) configuration block. */
export type ComponentFactory<TConfig = unknown> = (config: TConfig, context: ComponentContext) => AgentComponent;

/**
 * Loads a component's module (its folder's index.ts, whose default export is the factory) on first
 * use: the parse workers, which build the same registry, never load receivers or transmit services
 * (node-opcua, database drivers, mqtt).
 */
export type ComponentLoader<TConfig = unknown> = () => Promise<{ default: ComponentFactory<TConfig> }>;

// ------------------------------------------------------------------ transforms

/** Something a transform wants the operator to know about one batch. */
export interface TransformProblem {
  level: 'warning' | 'error';
  message: string;
  /** The message with its code (issue 57): the marker carries it. */
  said: AgentMessage;
}

/** The result of applying a transform to one batch. */
export interface TransformOutput {
  records: AgentRecord[];
  problems: TransformProblem[];
}

/**
 * One configured transform: a pure function over a batch of records of one stream. `apply` never
 * mutates its input and does no I/O; problems are data (a marker and a log line upstream), never
 * exceptions. Built from its configuration alone, so that a parse worker builds the same one.
 */
export interface RecordTransform {
  readonly name: string;
  apply(records: AgentRecord[]): TransformOutput;
}

/** Builds a transform from its configuration entry (parsed with the type's own schema). */
export type TransformFactory = (config: Transform) => RecordTransform;

// ------------------------------------------------------------------ transmits

/** One stored outbox batch of one stream. */
export interface EncodedBatch {
  payload: Buffer;
  records: number;
  /** First and last record in stored order (the KPI history keeps a batch's time range from them). */
  first: AgentRecord;
  last: AgentRecord;
  /** Earliest and latest record time (epoch µs) of a payload not sorted by time (sorted: first and last give them). */
  span?: { min: number; max: number };
}

/**
 * How a transmit type keeps records in its outbox. Records are encoded once, when they are
 * committed (for files in a parse worker), and only the transmit reads them back: the store and the
 * KPI history keep payloads without knowing their form.
 */
export interface OutboxCodec<TOptions = unknown> {
  /** Stored with each batch (outbox.format): a batch is always read back by the codec that wrote it. */
  readonly format: string;
  /**
   * What encoding needs from the transmit's configuration block (e.g. records per request). Plain
   * data: it travels to the parse workers in their plan.
   */
  options(config: unknown): TOptions;
  /** The payloads of one committed batch of one stream (several when a batch must be split). */
  encode(records: readonly AgentRecord[], options: TOptions): EncodedBatch[];
  /** The records of a stored payload. */
  decode(payload: Buffer): AgentRecord[];
  /**
   * The payload holds its records compactly, sorted by time or with their `span`: the KPI history
   * keeps it as it is instead of encoding the records again.
   */
  readonly keptByHistory?: boolean;
}
