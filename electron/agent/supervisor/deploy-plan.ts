/**
 * What applying a configuration does to the running services: which start, restart, stop, and
 * which keep running untouched (their connections and sessions with them). Pure: the same plan
 * answers POST /v1/config/validate before a save and drives the save itself.
 */
import { createHash } from 'node:crypto';
import type { ConfigChanges, ComponentType } from '../../../shared/api/resources.js';
import type { Configuration } from '../../../shared/config/schema.js';
import { StreamSelector } from '../../../shared/config/streams.js';
import type { StreamKey } from '../components/contract.js';

export const SERVICE_PREFIX: Record<ComponentType, string> = { Receiver: 'receiver', Transform: 'transform', Transmit: 'transmit' };

/** One configured component, as the supervisor runs it. */
export interface ServiceSpec {
  /** `receiver:<name>`, `transform:<name>`, `transmit:<name>` (status.agent.services). */
  id: string;
  kind: ComponentType;
  name: string;
  /** protocol, transform_type or transmit_type. */
  type: string;
  /** The parsed configuration block (defaults filled in). */
  block: unknown;
  /**
   * sha256 of the block in a canonical form: the same configuration gives the same signature,
   * whatever the key order. A hash, not the text: a receiver of 20,000 tags has a 1 MB text, which
   * V8 kept as a tree of its pieces for as long as the service ran (docs/performance.md, issue 40).
   */
  signature: string;
  /** Streams the component works on: its own (receiver), or those its filter_stream selects. */
  streams: StreamKey[];
}

/** A service as it runs now, for planning. */
export interface RunningService {
  signature: string;
  /** Its start failed: it does not run, whatever its configuration. */
  failed: boolean;
}

/** JSON with object keys sorted, so that key order never counts as a change. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The services of a configuration in pipeline order: transmits, transforms, receivers (so that
 * nothing produces before its consumers run; stopping goes the other way).
 */
export function serviceSpecs(config: Configuration): ServiceSpec[] {
  const allStreams: StreamKey[] = config.data_receiver.flatMap((r) => r.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type })));
  // Looked up, not tried one by one: 200 filters over 20,000 streams took seconds that way.
  const selector = new StreamSelector(allStreams);
  const matched = (filter: readonly string[] | undefined) => selector.select(filter);
  const spec = (kind: ComponentType, name: string, type: string, block: unknown, streams: StreamKey[]): ServiceSpec => ({
    id: `${SERVICE_PREFIX[kind]}:${name}`,
    kind,
    name,
    type,
    block,
    signature: createHash('sha256').update(type).update('\n').update(canonicalJson(block)).digest('hex'),
    streams,
  });
  return [
    ...config.data_transmit.map((t) => spec('Transmit', t.transmit_name, t.transmit_type, t, matched(t.filter_stream))),
    ...config.transforms.map((t) => spec('Transform', t.transform_name, t.transform_type, t, matched(t.filter_stream))),
    ...config.data_receiver.map((r) => spec('Receiver', r.data_receiver_name, r.protocol, r, r.streams.map((s) => ({ asset: s.asset, stream_type: s.stream_type })))),
  ];
}

/**
 * Compares the wanted services with the running ones. A service keeps running when its own
 * configuration block is the same: transforms and transmits reach receivers through the pipeline,
 * which is reconfigured in place, so a changed transform or transmit restarts only itself; a
 * receiver, transform or transmit depends on nothing else (stream lists of transforms and transmits
 * are updated in place too). A service whose start failed is started again.
 */
export function planDeploy(wanted: readonly ServiceSpec[], running: ReadonlyMap<string, RunningService>): ConfigChanges {
  const changes: ConfigChanges = { start: [], restart: [], stop: [], keep: [] };
  const ids = new Set(wanted.map((spec) => spec.id));
  for (const spec of wanted) {
    const current = running.get(spec.id);
    if (!current || current.failed) changes.start.push(spec.id);
    else if (current.signature !== spec.signature) changes.restart.push(spec.id);
    else changes.keep.push(spec.id);
  }
  for (const id of running.keys()) if (!ids.has(id)) changes.stop.push(id);
  return changes;
}
