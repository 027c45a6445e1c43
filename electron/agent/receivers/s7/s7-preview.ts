/**
 * Preview of an s7 receiver (POST /v1/config/preview): the read plan once, over a connection of its
 * own, one record per stream with the decoded values. Each stream's source names the PLC, the PDU
 * size it granted and the jobs its values come from, so the engineer sees how the PLC is asked.
 * The running receiver is not disturbed and nothing is committed.
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem } from '../../../../shared/api/preview.js';
import type { RawStreamPreview } from '../../components/raw-preview.js';
import { LinkError } from '../link-health.js';
import { pollRecord } from '../poll-records.js';
import { describeRange } from './plan.js';
import { type S7ReceiverConfig, planFor, planItems, pollOnce } from './poll.js';
import { S7Link } from './s7-link.js';

export async function previewS7(receiver: S7ReceiverConfig, options: { nowMicros: bigint }): Promise<RawStreamPreview[]> {
  const connection = receiver.connections[0]!;
  const link = new S7Link({ host: connection.host, port: connection.port, rack: connection.rack, slot: connection.slot, timeoutMs: connection.timeout * 1000 });
  const previews: RawStreamPreview[] = receiver.streams.map((s) => ({ key: { asset: s.asset, stream_type: s.stream_type }, source: `s7://${link.label}`, records: [], problems: [] }));
  try {
    await link.connect();
    const plan = planFor(planItems(receiver), link.pduSize);
    previews.forEach((preview, index) => {
      const ranges = plan.ranges.filter((r) => r.items.some((item) => item.stream === index));
      const jobs = plan.requests.filter((r) => r.parts.some((p) => ranges.includes(p.range))).length;
      preview.source = `s7://${link.label}, PDU ${link.pduSize} bytes, ${jobs} of ${plan.requests.length} job${plan.requests.length === 1 ? '' : 's'} per poll: ${ranges.map(describeRange).join('; ')}`;
    });
    const outcome = await pollOnce(receiver, link, plan);
    for (const refused of outcome.refused) previews[refused.item.stream]!.problems.push({ level: 'error', message: refused.message });
    receiver.streams.forEach((stream, s) => {
      const record = pollRecord(undefined, previews[s]!.key, stream.s7_tags.map((t) => t.exportname), outcome, s, options.nowMicros);
      if (record) previews[s]!.records.push(record);
    });
  } catch (cause) {
    const said = cause instanceof LinkError ? cause.said : say('preview.reading_failed', 'Reading failed: {error}', { error: (cause as Error).message });
    for (const preview of previews) preview.problems.push(previewProblem('error', said));
  } finally {
    link.close();
  }
  return previews;
}
