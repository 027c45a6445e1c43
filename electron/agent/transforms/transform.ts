/**
 * The transform contract: a pure function over a batch of records of one stream. Problems are
 * data (a marker on the stream and a log line upstream), never exceptions.
 */
import type { AgentRecord } from '../../../shared/records/record.js';

/** Something a transform wants the operator to know about one batch. */
export interface TransformProblem {
  level: 'warning' | 'error';
  message: string;
}

/** The result of applying a transform to one batch. */
export interface TransformOutput {
  records: AgentRecord[];
  problems: TransformProblem[];
}

/** One configured transform. `apply` never mutates its input and does no I/O. */
export interface RecordTransform {
  readonly name: string;
  apply(records: AgentRecord[]): TransformOutput;
}
