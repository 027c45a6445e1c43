import path from 'node:path';
import { AttributeIds, BrowseDirection, DataType, NodeClass, type NodeId, type ReferenceDescription, resolveNodeId } from 'node-opcua-client';
import { AgentError } from '../../errors/agent-error.js';
import { OpcuaReceiverSchema } from '../../../../shared/config/schema.js';
import { componentFolderName } from '../../../../shared/config/name-rules.js';
import type { Logger } from '../../logging/logger.js';
import { attachOpcuaLog } from './opcua-log.js';
import { ConnectError, OpcuaEndpoint, bounded } from './opcua-endpoint.js';
import { pkiFolderOf } from './opcua-receiver.js';
import { chunks } from './tag-index.js';

/** One child node, as the console's tag picker shows it. */
export interface OpcuaBrowseNode {
  node_id: string;
  browse_name: string;
  display_name: string;
  node_class: string;
  /** Data type of a variable (Double, Boolean, String, a structure's name …); null for other classes. */
  data_type: string | null;
}

/** The Objects folder: where a server's machines and tags live. */
export const DEFAULT_BROWSE_NODE = 'i=85';
const MAX_CHILDREN = 5000;

export interface BrowseOptions {
  /** The agent's data directory: the receiver's certificates and trust list are used. */
  agentDataDirectory: string;
  logger: Logger;
}

/**
 * Child nodes of `nodeId` (default: the Objects folder) on the server of the saved receiver
 * `receiverName`, following hierarchical references (Organizes, HasComponent, HasProperty …).
 * Uses the receiver's own application certificate and trust list, so browsing needs the same trust
 * as reading. A short session of its own; the running receiver is not disturbed.
 */
export async function browseOpcua(savedConfig: unknown, receiverName: string, nodeId: string | undefined, options: BrowseOptions): Promise<OpcuaBrowseNode[]> {
  const receivers = (savedConfig as { data_receiver?: unknown } | undefined)?.data_receiver;
  const raw = Array.isArray(receivers) ? receivers.find((r) => (r as { data_receiver_name?: unknown })?.data_receiver_name === receiverName) : undefined;
  if (!raw) throw new AgentError('not_found', `No receiver named "${receiverName}" in the saved configuration.`);
  const parsed = OpcuaReceiverSchema.safeParse(raw);
  if (!parsed.success) {
    const protocol = (raw as { protocol?: unknown }).protocol;
    throw new AgentError('bad_request', protocol === 'opcua' ? `The receiver "${receiverName}" is not a valid OPC UA receiver: ${parsed.error.issues[0]?.message}` : `The receiver "${receiverName}" uses protocol ${String(protocol)}, not opcua.`);
  }
  let start: NodeId;
  try {
    start = resolveNodeId(nodeId || DEFAULT_BROWSE_NODE);
  } catch {
    throw new AgentError('bad_request', `"${nodeId}" is not a node id. Use the form ns=2;s=Line1 or i=85.`);
  }
  const connection = parsed.data.connections[0]!;
  // Mirrors the supervisor's component directory: components/receiver/<name>.
  const endpoint = new OpcuaEndpoint(connection, pkiFolderOf(path.join(options.agentDataDirectory, 'components', 'receiver', componentFolderName(receiverName))));
  const detach = attachOpcuaLog(options.logger);
  try {
    await endpoint.init();
    const open = await endpoint.open({ keepSessionAlive: false }).catch((cause: unknown) => {
      const error = cause instanceof ConnectError ? cause : endpoint.explain(cause);
      throw new AgentError('unavailable', error.message, { response: { category: error.category } });
    });
    try {
      return await bounded(children(open.session, start, open.limits.maxNodesPerRead), connection.timeout * 3000, `the server did not answer the browse within ${connection.timeout * 3} s`);
    } finally {
      await open.close();
    }
  } catch (cause) {
    if (cause instanceof AgentError) throw cause;
    throw new AgentError('unavailable', `Browsing ${endpoint.url} failed: ${(cause as Error).message}`);
  } finally {
    await endpoint.dispose();
    detach();
  }
}

type Session = Awaited<ReturnType<OpcuaEndpoint['open']>>['session'];

async function children(session: Session, start: NodeId, maxNodesPerRead: number): Promise<OpcuaBrowseNode[]> {
  const first = await session.browse({
    nodeId: start,
    referenceTypeId: 'HierarchicalReferences',
    includeSubtypes: true,
    browseDirection: BrowseDirection.Forward,
    nodeClassMask: 0,
    resultMask: 0x3f,
  });
  if (first.statusCode.isNotGood()) throw new AgentError('not_found', `The server cannot browse ${start.toString()}: ${first.statusCode.name}.`);
  const references: ReferenceDescription[] = [...(first.references ?? [])];
  let continuation = first.continuationPoint;
  while (continuation && continuation.length > 0 && references.length < MAX_CHILDREN) {
    const next = await session.browseNext(continuation, false);
    references.push(...(next.references ?? []));
    continuation = next.continuationPoint;
  }
  if (continuation && continuation.length > 0) await session.browseNext(continuation, true).catch(() => undefined);
  const types = await dataTypes(session, references, maxNodesPerRead);
  return references.slice(0, MAX_CHILDREN).map((r, i) => ({
    node_id: r.nodeId.toString().replace(/^ns=0;/, ''),
    browse_name: r.browseName.name ?? '',
    display_name: r.displayName.text ?? r.browseName.name ?? '',
    node_class: NodeClass[r.nodeClass] ?? String(r.nodeClass),
    data_type: types[i] ?? null,
  }));
}

/** Data type names of the variables among `references` (undefined for other node classes). */
async function dataTypes(session: Session, references: readonly ReferenceDescription[], maxNodesPerRead: number): Promise<(string | undefined)[]> {
  const variables = references.map((r, i) => ({ r, i })).filter(({ r }) => r.nodeClass === NodeClass.Variable);
  const typeIds = new Map<number, NodeId>();
  for (const chunk of chunks(variables, maxNodesPerRead)) {
    const values = await session.read(chunk.map(({ r }) => ({ nodeId: r.nodeId, attributeId: AttributeIds.DataType })));
    chunk.forEach(({ i }, k) => {
      const value = values[k]?.value?.value as NodeId | undefined;
      if (values[k]?.statusCode.isGood() && value) typeIds.set(i, value);
    });
  }
  // Built-in types have their names here; others (enumerations, structures) are looked up once each.
  const names = new Map<string, string>();
  const unknown = [...new Set([...typeIds.values()].filter((id) => !(id.namespace === 0 && typeof id.value === 'number' && DataType[id.value])).map((id) => id.toString()))];
  for (const chunk of chunks(unknown, maxNodesPerRead)) {
    const values = await session.read(chunk.map((id) => ({ nodeId: id, attributeId: AttributeIds.BrowseName })));
    chunk.forEach((id, k) => names.set(id, (values[k]?.value?.value as { name?: string } | undefined)?.name ?? id));
  }
  return references.map((_, i) => {
    const id = typeIds.get(i);
    if (!id) return undefined;
    if (id.namespace === 0 && typeof id.value === 'number' && DataType[id.value]) return DataType[id.value];
    return names.get(id.toString()) ?? id.toString();
  });
}
