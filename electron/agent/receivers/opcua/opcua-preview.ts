/**
 * Preview of an OPC UA receiver: one Read of every tag's current value over a short session of its
 * own (the receiver's certificate and trust list, as browsing does), one record per stream with
 * each tag's value and status columns, time stamped with the newest source time. The running
 * receiver is not disturbed and nothing is committed.
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem, type PreviewProblem } from '../../../../shared/api/preview.js';
import { AttributeIds, type DataValue } from 'node-opcua-client';
import type { FieldValue } from '../../../../shared/records/record.js';
import { isoMicros } from '../../../../shared/records/record.js';
import type { Logger } from '../../logging/logger.js';
import type { StreamKey } from '../../components/contract.js';
import { attachOpcuaLog } from './opcua-log.js';
import { ConnectError, OpcuaEndpoint, bounded } from './opcua-endpoint.js';
import type { OpcuaReceiverConfig } from './opcua-receiver.js';
import { statusColumn } from './stream-records.js';
import { chunks, indexTags } from './tag-index.js';
import { convertVariant, describeStatus, sampleMicros } from './values.js';

export interface OpcuaStreamPreview {
  key: StreamKey;
  source: string | null;
  records: { asset: string; stream_type: string; timestamp: string; capturetime: string; fieldvalues: Record<string, FieldValue>; record_id: string }[];
  problems: PreviewProblem[];
}

export async function previewOpcua(receiver: OpcuaReceiverConfig, options: { pkiFolder: string; nowMicros: bigint; logger: Logger }): Promise<OpcuaStreamPreview[]> {
  const connection = receiver.connections[0]!;
  const tags = receiver.streams.map((s) => s.opcua_tags.map((t) => ({ node: t.name, exportname: t.exportname })));
  const { nodes, invalid } = indexTags(tags);
  const endpoint = new OpcuaEndpoint(connection, options.pkiFolder);
  const previews: OpcuaStreamPreview[] = receiver.streams.map((s) => ({ key: { asset: s.asset, stream_type: s.stream_type }, source: endpoint.url, records: [], problems: [] }));
  for (const bad of invalid) previews[bad.stream]!.problems.push(previewProblem('error', say('opcua.preview_not_node_id', '{node} ({column}) is not a node id: {error}', { node: bad.tag.node, column: bad.tag.exportname, error: bad.reason })));
  const detach = attachOpcuaLog(options.logger);
  const values = new Map<string, DataValue>();
  try {
    await endpoint.init();
    const open = await endpoint.open({ keepSessionAlive: false });
    try {
      for (const chunk of chunks(nodes, open.limits.maxNodesPerRead)) {
        const read = await bounded(
          open.session.read(chunk.map((n) => ({ nodeId: n.nodeId, attributeId: AttributeIds.Value })), 0),
          connection.timeout * 1000,
          say('opcua.server_no_answer_within', 'the server did not answer within {seconds} s', { seconds: connection.timeout }),
        );
        chunk.forEach((node, i) => read[i] && values.set(node.text, read[i]!));
      }
    } finally {
      await open.close();
    }
  } catch (cause) {
    const error = cause instanceof ConnectError ? cause : endpoint.explain(cause);
    for (const preview of previews) preview.problems.push(previewProblem('error', error.said));
    return previews;
  } finally {
    await endpoint.dispose();
    detach();
  }
  const capture = options.nowMicros;
  receiver.streams.forEach((stream, index) => {
    const preview = previews[index]!;
    const fieldvalues: Record<string, FieldValue> = {};
    let newest: bigint | undefined;
    for (const tag of stream.opcua_tags) {
      const dataValue = values.get(tag.name);
      if (!dataValue) continue;
      const { name, quality } = describeStatus(dataValue.statusCode);
      const converted = convertVariant(dataValue.value);
      if (converted.kind === 'array') converted.values.forEach((v, i) => (fieldvalues[`${tag.exportname}_${i}`] = v));
      else fieldvalues[tag.exportname] = converted.kind === 'scalar' ? converted.value : null;
      fieldvalues[statusColumn(tag.exportname)] = name;
      if (converted.kind === 'rejected')
        preview.problems.push(previewProblem('warning', say('opcua.preview_value_rejected', '{node} ({column}) holds {why}: it is recorded as null.', { node: tag.name, column: tag.exportname, why: converted.said })));
      if (quality !== 'good') preview.problems.push(previewProblem(quality === 'bad' ? 'error' : 'warning', say('opcua.preview_status', '{node} ({column}) is {status}.', { node: tag.name, column: tag.exportname, status: name })));
      const micros = sampleMicros(dataValue, capture);
      if (newest === undefined || micros > newest) newest = micros;
    }
    if (Object.keys(fieldvalues).length > 0)
      preview.records.push({ ...preview.key, timestamp: isoMicros(newest ?? capture), capturetime: isoMicros(capture), fieldvalues, record_id: '' });
  });
  return previews;
}
