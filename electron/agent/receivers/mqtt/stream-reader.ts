import type { MessageReader } from './message-records.js';

/**
 * What a connection needs of a stream's reader: MessageReader (JSON, plain values) or
 * SparkplugReader, which reads more topics than its stream's filter (the births and seq of its nodes).
 */
export type StreamReader = Pick<MessageReader, 'stream' | 'read'> & {
  /** Filters to subscribe besides the stream's topic. */
  readonly extraFilters?: readonly string[];
  /** Whether a message is for this reader; default: the stream's topic filter matches it. */
  accepts?(topic: string): boolean;
};
