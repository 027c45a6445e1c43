/**
 * The vocabulary of a commit (BatchCommitter): the plan a batch of one stream is committed by, and
 * what the commit did. A leaf (it imports types only, none of the agent's code):
 * components/contract.ts and the parse threads' protocol (parse-protocol.ts) speak it without
 * reaching the pipeline's code.
 */
import type { QualitySettings } from '../../../shared/config/data-quality-rules.js';
import type { Transform } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { AgentMessage } from '../../../shared/config/message.js';
import type { QualityDigest } from './quality-digest.js';

/** Where and how the KPI history keeps committed records (the same database from every thread). */
export interface HistoryTarget {
  file: string;
  retentionMs: number;
  maxRecords: number;
}

/**
 * Everything needed to commit batches of one stream of one receiver, built once per stream and
 * configuration (Pipeline.plan). Plain data: it travels to the parse workers with each chunk.
 */
export interface CommitPlan {
  /** Changes whenever the configuration does: a worker prepares each plan once, by its id. */
  id: string;
  storeFile: string;
  receiver: string;
  /**
   * A StreamKey (components/contract.ts), spelled out: this leaf imports nothing of the agent's.
   */
  stream: { asset: string; stream_type: string };
  /** The transforms that select the stream, in order (types this build has). */
  transforms: { name: string; config: Transform }[];
  /** The transmits that select the stream: codec by transmit type, its options, outbox limit. */
  routes: { transmit: string; type: string; options: unknown; maxBufferBytes: number }[];
  history?: HistoryTarget;
  /** Some record tap observes on the main thread: a worker sends the committed records back. */
  returnRecords: boolean;
  /**
   * What the data-quality watch checks in this stream (a digest of each batch goes back with the
   * outcome).
   */
  quality?: QualitySettings;
}

/** What one transform stage made of one batch: problems to report, or why it failed. */
export interface StageReport {
  stage: string;
  problems: { level: 'warning' | 'error'; message: string; said: AgentMessage }[];
  /** The transform threw: the records passed on unchanged. */
  failed?: string;
}

/** What a commit did, for the main thread's markers, logs, outbox accounting and taps. */
export interface CommitOutcome {
  /** Records after transforms. */
  records: number;
  /** Records the receiver handed over (before transforms): the stream's records_read. */
  read: number;
  /**
   * The own timestamp of the batch's last record (after transforms when one is left): the stream's
   * newest.
   */
  lastTimestamp?: string;
  reports: StageReport[];
  queued: { transmit: string; bytes: number; records: number }[];
  /** The committed records, when the plan asked for them (or on the main thread). */
  tapped?: AgentRecord[];
  /** Keeping the records for KPI evaluation failed (they are committed and will be sent anyway). */
  historyError?: string;
  /** What the data-quality watch needs of the committed records (quality-digest.ts). */
  quality?: QualityDigest;
}

export type CommitResult =
  { committed: CommitOutcome } | { full: { transmit: string; bytes: number } };
