import { type DataValue, type NodeId, resolveNodeId } from 'node-opcua-client';
import type { Tag } from './stream-records.js';

/** A tag value as it arrived, for the stream it belongs to. */
export interface Sample {
  stream: number;
  tag: Tag;
  dataValue: DataValue;
}

/** One node the server is asked about; several tags (of several streams) may read the same node. */
export interface WatchedNode {
  text: string;
  nodeId: NodeId;
  readers: { stream: number; tag: Tag }[];
}

/** The nodes of all streams, each once; node ids that cannot be parsed are set apart. */
export function indexTags(streams: readonly (readonly Tag[])[]): { nodes: WatchedNode[]; invalid: { stream: number; tag: Tag; reason: string }[] } {
  const byText = new Map<string, WatchedNode>();
  const invalid: { stream: number; tag: Tag; reason: string }[] = [];
  streams.forEach((tags, stream) => {
    for (const tag of tags) {
      let node = byText.get(tag.node);
      if (!node) {
        let nodeId: NodeId;
        try {
          nodeId = resolveNodeId(tag.node);
        } catch (cause) {
          invalid.push({ stream, tag, reason: (cause as Error).message });
          continue;
        }
        node = { text: tag.node, nodeId, readers: [] };
        byText.set(tag.node, node);
      }
      node.readers.push({ stream, tag });
    }
  });
  return { nodes: [...byText.values()], invalid };
}

export function samplesOf(node: WatchedNode, dataValue: DataValue): Sample[] {
  return node.readers.map((r) => ({ stream: r.stream, tag: r.tag, dataValue }));
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += Math.max(1, size)) out.push(items.slice(i, i + Math.max(1, size)));
  return out;
}

/** Status codes that mean "this node id is wrong", not "this value is bad". */
export function isNodeProblem(statusName: string): boolean {
  return /^Bad(NodeIdUnknown|NodeIdInvalid|AttributeIdInvalid|NotReadable|UserAccessDenied|IndexRangeInvalid)/.test(statusName);
}
