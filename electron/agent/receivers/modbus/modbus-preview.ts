/**
 * Preview of a modbus receiver (POST /v1/config/preview): the read plan once, over a connection of
 * its own, one record per stream with the decoded values. Each stream's source names the device and
 * the requests its values come from (the read plan), so the engineer sees how the device is asked.
 * The running receiver is not disturbed and nothing is committed.
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem } from '../../../../shared/api/preview.js';
import type { RawStreamPreview } from '../../components/raw-preview.js';
import { LinkError, ModbusLink } from './modbus-link.js';
import { pollRecord } from '../poll-records.js';
import { describeRequest, planReads } from './plan.js';
import { type ModbusReceiverConfig, planItems, pollOnce } from './poll.js';

export async function previewModbus(receiver: ModbusReceiverConfig, options: { nowMicros: bigint }): Promise<RawStreamPreview[]> {
  const connection = receiver.connections[0]!;
  const plan = planReads(planItems(receiver));
  const link = new ModbusLink({ host: connection.host, port: connection.port, timeoutMs: connection.timeout * 1000, units: receiver.streams.map((s) => s.unit_id) });
  const previews: RawStreamPreview[] = receiver.streams.map((s, index) => {
    const requests = plan.filter((r) => r.items.some((item) => item.stream === index));
    const shared = requests.filter((r) => r.items.some((item) => item.stream !== index)).length;
    const sharing = shared === 0 ? '' : ` (${shared} shared with other streams)`;
    return {
      key: { asset: s.asset, stream_type: s.stream_type },
      source: `modbus://${link.label}, ${requests.length} request${requests.length === 1 ? '' : 's'} of ${plan.length} per poll${sharing}: ${requests.map(describeRequest).join('; ')}`,
      records: [],
      problems: [],
    };
  });
  try {
    await link.connect();
    const outcome = await pollOnce(receiver, link, plan);
    for (const refused of outcome.refused) previews[refused.item.stream]!.problems.push({ level: 'error', message: refused.message });
    if (outcome.replanned) for (const preview of previews) preview.problems.push(previewProblem('warning', say('modbus.requests_split', 'A merged request reached an address the device does not have, so the receiver reads those values one by one ({requests} requests per poll instead of {planned}).', { requests: outcome.replanned!.length, planned: plan.length })));
    receiver.streams.forEach((stream, s) => {
      const record = pollRecord(undefined, previews[s]!.key, stream.modbus_registers.map((r) => r.exportname), outcome, s, options.nowMicros);
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
