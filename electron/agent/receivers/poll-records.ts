/**
 * What the polling receivers of devices (modbus, s7) share about the records of one poll: one record
 * per stream with a column per configured value (null where it could not be read), time stamped when
 * the last answer it needed arrived; and the per-stream marker of values the device refused.
 */
import crypto from 'node:crypto';
import { streamId } from '../../../shared/config/streams.js';
import { say, type AgentMessage } from '../../../shared/config/message.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../shared/records/record.js';
import { BufferFullError, type ComponentContext, type StreamKey } from '../components/contract.js';

/** One poll's values: per stream, per configured value (undefined: not read), and per stream the time of its last answer (ms). */
export interface PolledValues {
  values: (FieldValue | undefined)[][];
  answeredAt: number[];
}

function recordId(receiver: string, key: StreamKey, timestamp: string): string {
  return crypto.createHash('sha256').update([receiver, key.asset, key.stream_type, timestamp].join('\0')).digest('hex').slice(0, 32);
}

/**
 * The record of stream `s` (undefined when none of its values was read). `receiver` names the
 * record_id's receiver; the preview passes undefined (its records are never stored).
 */
export function pollRecord(receiver: string | undefined, key: StreamKey, columns: readonly string[], polled: PolledValues, s: number, fallbackMicros = 0n): AgentRecord | undefined {
  const values = polled.values[s]!;
  if (values.every((v) => v === undefined)) return undefined;
  const fieldvalues: Record<string, FieldValue> = {};
  columns.forEach((column, v) => (fieldvalues[column] = values[v] ?? null));
  const time = polled.answeredAt[s] ? isoMicros(BigInt(polled.answeredAt[s]!) * 1000n) : isoMicros(fallbackMicros);
  return { ...key, timestamp: time, capturetime: time, fieldvalues, record_id: receiver === undefined ? '' : recordId(receiver, key, time) };
}

/**
 * Hands one poll's records to the pipeline, committed with other devices' polls of the same 100 ms
 * (submitSoon); a full outbox is marked by the pipeline (the device keeps no history).
 */
export async function submitPoll(context: Pick<ComponentContext, 'pipeline' | 'logger'>, receiver: string, keys: readonly StreamKey[], columns: readonly (readonly string[])[], polled: PolledValues): Promise<void> {
  const batches = keys.flatMap((key, s) => {
    const record = pollRecord(receiver, key, columns[s]!, polled, s);
    return record ? [{ stream: key, records: [record], progress: {} }] : [];
  });
  if (batches.length === 0) return;
  const errors = await context.pipeline.submitSoon(receiver, batches);
  errors.forEach((error, i) => {
    if (error && !(error instanceof BufferFullError)) context.logger.error(`${streamId(batches[i]!.stream.asset, batches[i]!.stream.stream_type)}: the record could not be stored: ${error.message}`);
  });
}

/** The marker of refused values on each stream that has some this poll; cleared once a poll has none. */
export class RefusedMarkers {
  private marked = new Set<number>();

  constructor(
    private readonly context: Pick<ComponentContext, 'markers' | 'logger'>,
    private readonly keys: readonly StreamKey[],
    private readonly category: string,
  ) {}

  /** `message`: what the device refused, with its code where the receiver says it by code (said). */
  update(refused: readonly { item: { stream: number }; message: string; said?: AgentMessage }[]): void {
    const { markers, logger } = this.context;
    const byStream = new Map<number, (string | AgentMessage)[]>();
    for (const r of refused) byStream.set(r.item.stream, [...(byStream.get(r.item.stream) ?? []), r.said ?? r.message]);
    for (const [s, problems] of byStream) {
      const said = refusedValues(problems);
      const message = said.text;
      markers.raise([this.keys[s]!], 'error', this.category, said);
      if (!this.marked.has(s)) logger.warn(`${streamId(this.keys[s]!.asset, this.keys[s]!.stream_type)}: ${message}`);
    }
    for (const s of this.marked) if (!byStream.has(s)) markers.clear(this.category, [this.keys[s]!]);
    this.marked = new Set(byStream.keys());
  }
}

/** The values a device refused in one poll: three said whole, more counted. */
function refusedValues(problems: readonly (string | AgentMessage)[]): AgentMessage {
  const [first, second, third] = problems as [string | AgentMessage, (string | AgentMessage)?, (string | AgentMessage)?];
  if (problems.length > 3)
    return say('poll.values_refused_more', '{first} {second} {third} And {more} more. These values are null in the records; the stream\'s other values go on.', { first, second: second!, third: third!, more: problems.length - 3 });
  if (third) return say('poll.values_refused_3', '{first} {second} {third} These values are null in the records; the stream\'s other values go on.', { first, second: second!, third });
  if (second) return say('poll.values_refused_2', '{first} {second} These values are null in the records; the stream\'s other values go on.', { first, second });
  return say('poll.value_refused', '{first} This value is null in the records; the stream\'s other values go on.', { first });
}
