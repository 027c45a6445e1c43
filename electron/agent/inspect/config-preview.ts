/**
 * POST /v1/config/preview: runs one receiver of an unsaved configuration as far as reading, then the
 * transforms that select each stream, and hands back the first records. Reads only: the store's
 * progress and outbox are never written, nothing is sent.
 */
import { AgentError } from '../errors/agent-error.js';
import type { PreviewProblem, PreviewResult, StreamPreview } from '../../../shared/api/preview.js';
import { DataReceiverSchema, TransformSchema, type Transform } from '../../../shared/config/schema.js';
import { filterSelects, streamId } from '../../../shared/config/streams.js';
import type { Violation } from '../../../shared/config/violations.js';
import type { Clock } from '../time/clock.js';
import type { ComponentRegistry } from '../components/registry.js';
import type { Logger } from '../logging/logger.js';
import type { StreamKey } from '../components/contract.js';
import { applyStages } from '../pipeline/batch-committer.js';
import type { RawStreamPreview } from '../components/raw-preview.js';

export interface PreviewContext {
  agentDataDirectory: string;
  logger: Logger;
  clock: Clock;
  /** Builds the transforms, as the pipeline does. */
  registry: ComponentRegistry;
  /** The committed state of a saved SQL stream (what its next poll binds). */
  savedState: (receiver: string, key: StreamKey, column: string) => string | undefined;
}

/**
 * `document`: the configuration with secrets resolved; `violations`: what validation found in it.
 * Refuses (422) when the receiver or the transforms have errors; the rest may be unfinished.
 */
export async function previewConfiguration(document: unknown, violations: readonly Violation[], request: { receiver?: string; rows: number }, context: PreviewContext): Promise<PreviewResult> {
  const doc = (document ?? {}) as { data_receiver?: unknown; transforms?: unknown };
  const receivers = Array.isArray(doc.data_receiver) ? (doc.data_receiver as unknown[]) : [];
  const index = request.receiver === undefined ? (receivers.length > 0 ? 0 : -1) : receivers.findIndex((r) => (r as { data_receiver_name?: unknown })?.data_receiver_name === request.receiver);
  if (index < 0) throw new AgentError('not_found', request.receiver === undefined ? 'The configuration has no receiver to preview.' : `The configuration has no receiver named "${request.receiver}".`);
  const errors = violations.filter((v) => v.level === 'error' && ((v.json_path[0] === 'data_receiver' && v.json_path[1] === index) || v.json_path[0] === 'transforms'));
  const parsed = DataReceiverSchema.safeParse(receivers[index]);
  if (errors.length > 0 || !parsed.success) {
    const count = Math.max(1, errors.length);
    throw new AgentError('unprocessable', `The receiver or the transforms have ${count} error${count === 1 ? '' : 's'}: fix ${count === 1 ? 'it' : 'them'} to preview.`, { response: { status: 'failed', violations: errors } });
  }
  const receiver = parsed.data;
  const transforms = (Array.isArray(doc.transforms) ? doc.transforms : []).flatMap((t) => {
    const one = TransformSchema.safeParse(t);
    return one.success ? [one.data] : [];
  });
  const nowMicros = context.clock.nowMicros();
  const logger = context.logger.child(`preview:${receiver.data_receiver_name}`);
  const preview = await context.registry.receiverPreview(receiver.protocol);
  if (!preview) throw new AgentError('unprocessable', `This build cannot preview ${receiver.protocol} receivers.`);
  const raw = await preview(receiver as never, {
    rows: request.rows,
    nowMicros,
    logger,
    agentDataDirectory: context.agentDataDirectory,
    savedState: (key, column) => context.savedState(receiver.data_receiver_name, key, column),
  });
  return { receiver: receiver.data_receiver_name, protocol: receiver.protocol, streams: raw.map((stream) => transformed(stream, transforms, context.registry)) };
}

/** The stream's records after the transforms that select it, with their problems. */
function transformed(stream: RawStreamPreview, transforms: readonly Transform[], registry: ComponentRegistry): StreamPreview {
  const id = streamId(stream.key.asset, stream.key.stream_type);
  const stages = transforms.filter((t) => filterSelects(t.filter_stream, id)).flatMap((t) => {
    const transform = registry.createTransform(t);
    return transform ? [{ name: t.transform_name, transform }] : [];
  });
  const problems: PreviewProblem[] = [...stream.problems];
  const { records, reports } = applyStages(stages, stream.records);
  for (const report of reports) {
    if (report.failed !== undefined) problems.push({ level: 'error', message: `The transform ${report.stage} failed (${report.failed}); records would pass on unchanged.` });
    for (const problem of report.problems) problems.push({ level: problem.level, message: `${report.stage}: ${problem.message}` });
  }
  const columns = [...new Set(records.flatMap((r) => Object.keys(r.fieldvalues)))];
  return {
    asset: stream.key.asset,
    stream_type: stream.key.stream_type,
    source: stream.source,
    columns,
    records: records.map((r) => ({ timestamp: r.timestamp, fieldvalues: r.fieldvalues })),
    problems,
  };
}
