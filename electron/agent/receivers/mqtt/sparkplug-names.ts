/**
 * What a Sparkplug reader remembers of the nodes and devices it reads (their seq, the names of
 * their aliases and their datatypes), bounded in every dimension a publisher controls (issue 50,
 * docs/decisions/0060-sparkplug-bounds.md): nodes, devices per node, metrics and name bytes in all,
 * and the length of one name. Whatever a birth says beyond a bound is not remembered; to make room
 * the largest devices not recently read or born (then the oldest nodes) are forgotten, never the
 * one being born. A death or a
 * rebirth forgets what was remembered before it.
 */
import type { DecodedPayload } from '../../mqtt/sparkplug-decode.js';

/** Nodes remembered at most; the oldest is forgotten first (and asked to rebirth when it speaks again). */
export const MAX_REMEMBERED_NODES = 1_000;
/** Devices of one node remembered at most: births of further devices are not remembered until the next NBIRTH. */
export const MAX_DEVICES_PER_NODE = 1_000;
/** Devices remembered in all nodes of one reader. */
export const MAX_REMEMBERED_DEVICES = 10_000;
/** A device read or born this recently is forgotten only when no other can make room. */
export const RECENT_USE_MS = 60_000;
/** Entries (an alias, a name with its datatype) remembered in all nodes and devices of one reader. */
export const MAX_REMEMBERED_ENTRIES = 500_000;
/** Characters of the metric names remembered in all. */
export const MAX_REMEMBERED_NAME_CHARS = 16 << 20;
/** A metric name longer than this (UTF-8 bytes) is not read at all. */
export const MAX_NAME_BYTES = 1024;

export interface Names {
  aliases: Map<number, string>;
  types: Map<string, number>;
  /** Aliases and names remembered here (counted against MAX_REMEMBERED_ENTRIES). */
  size: number;
  /** Characters of their names (counted against MAX_REMEMBERED_NAME_CHARS). */
  chars: number;
}

export interface NodeState extends Names {
  seq: number | undefined;
  /** A rebirth was asked for and its NBIRTH has not come yet. */
  rebirthAsked: boolean;
  /** The bdSeq of its NBIRTH: an NDEATH with another bdSeq is the will of an older connection. */
  bdSeq: bigint | undefined;
  devices: Map<string, Names>;
}

export const emptyNames = (): Names => ({ aliases: new Map(), types: new Map(), size: 0, chars: 0 });

export class NameBook {
  private readonly nodes = new Map<string, NodeState>();
  /** Every remembered device, oldest birth first: `node key \0 device id`. */
  private readonly order = new Map<string, { node: NodeState; id: string; usedAt: number }>();
  private entries = 0;
  private chars = 0;

  /** What is remembered (for tests): nodes, devices, entries, name characters. */
  get totals() {
    return { nodes: this.nodes.size, devices: this.order.size, entries: this.entries, chars: this.chars };
  }

  peek(key: string): NodeState | undefined {
    return this.nodes.get(key);
  }

  node(key: string): NodeState {
    const known = this.nodes.get(key);
    if (known) return known;
    if (this.nodes.size >= MAX_REMEMBERED_NODES) this.dropNode(this.nodes.keys().next().value!);
    const node: NodeState = { ...emptyNames(), seq: undefined, rebirthAsked: false, bdSeq: undefined, devices: new Map() };
    this.nodes.set(key, node);
    return node;
  }

  /**
   * A remembered device, now the youngest: a device that sends data is forgotten after those that
   * were only born (a flood of invented births makes room with its own older births first).
   */
  device(nodeKey: string, id: string): Names | undefined {
    const names = this.nodes.get(nodeKey)?.devices.get(id);
    if (!names) return undefined;
    this.order.get(`${nodeKey}\0${id}`)!.usedAt = Date.now();
    return names;
  }

  /** The device's names, emptied for its birth; undefined when the node has as many devices as it may. */
  birthDevice(nodeKey: string, node: NodeState, id: string): Names | undefined {
    const known = node.devices.get(id);
    if (known) {
      this.release(known);
      this.order.get(`${nodeKey}\0${id}`)!.usedAt = Date.now();
      return known;
    }
    if (node.devices.size >= MAX_DEVICES_PER_NODE || this.order.size >= MAX_REMEMBERED_DEVICES) return undefined;
    const names = emptyNames();
    node.devices.set(id, names);
    this.order.set(`${nodeKey}\0${id}`, { node, id, usedAt: Date.now() });
    return names;
  }

  forgetDevice(nodeKey: string, id: string): void {
    const node = this.nodes.get(nodeKey);
    const names = node?.devices.get(id);
    if (!node || !names) return;
    this.release(names);
    node.devices.delete(id);
    this.order.delete(`${nodeKey}\0${id}`);
  }

  /** A death or a rebirth: the node's names and all its devices are forgotten. */
  clearNode(nodeKey: string, node: NodeState): void {
    this.release(node);
    for (const [id, names] of node.devices) {
      this.release(names);
      this.order.delete(`${nodeKey}\0${id}`);
    }
    node.devices.clear();
  }

  /**
   * Remembers the names and datatypes a birth gives (what `names` held is forgotten first). Returns
   * how many named metrics could not be remembered (a name over MAX_NAME_BYTES, or no room left
   * once every older device and node was forgotten).
   */
  learn(nodeKey: string, names: Names, decoded: DecodedPayload): number {
    this.release(names);
    let dropped = 0;
    let full = false;
    for (const metric of decoded.metrics) {
      if (metric.longName) dropped += 1;
      const name = metric.name;
      if (name === undefined) continue;
      const newAlias = metric.alias !== undefined && !names.aliases.has(metric.alias);
      const newName = !names.types.has(name);
      const size = (newAlias ? 1 : 0) + (newName ? 1 : 0);
      const chars = newName ? name.length : 0;
      // Once nothing else can be forgotten, the rest of the birth is not tried one by one (each try
      // looks at every device).
      if (size > 0 && (full || !this.makeRoom(nodeKey, names, size, chars))) {
        full = true;
        dropped += 1;
        continue;
      }
      this.count(names, size, chars);
      if (metric.alias !== undefined) names.aliases.set(metric.alias, name);
      names.types.set(name, metric.datatype ?? names.types.get(name) ?? -1);
    }
    return dropped;
  }

  private count(names: Names, size: number, chars: number): void {
    names.size += size;
    names.chars += chars;
    this.entries += size;
    this.chars += chars;
  }

  /**
   * Forgets devices, then the oldest nodes, until `size` entries of `chars` fit: first the largest
   * device not read or born within RECENT_USE_MS, else the largest of all. A flood of huge invented
   * births makes room with its own births; a real device of a few metrics that sends data stays.
   */
  private makeRoom(nodeKey: string, keep: Names, size: number, chars: number): boolean {
    while (this.entries + size > MAX_REMEMBERED_ENTRIES || this.chars + chars > MAX_REMEMBERED_NAME_CHARS) {
      const device = this.victim(keep);
      if (device) {
        this.forgetDevice(device[0], device[1]);
        continue;
      }
      const oldest = [...this.nodes.keys()].find((key) => key !== nodeKey);
      if (oldest === undefined) return false;
      this.dropNode(oldest);
    }
    return true;
  }

  private victim(keep: Names): [string, string] | undefined {
    const now = Date.now();
    let best: { key: string; id: string; size: number; recent: boolean } | undefined;
    for (const [key, { node, id, usedAt }] of this.order) {
      const names = node.devices.get(id)!;
      if (names === keep || names.size === 0) continue;
      const recent = now - usedAt < RECENT_USE_MS;
      if (!best || (best.recent && !recent) || (best.recent === recent && names.size > best.size)) best = { key, id, size: names.size, recent };
    }
    return best && [best.key.slice(0, best.key.indexOf('\0')), best.id];
  }

  private dropNode(key: string): void {
    const node = this.nodes.get(key);
    if (!node) return;
    this.clearNode(key, node);
    this.nodes.delete(key);
  }

  private release(names: Names): void {
    this.entries -= names.size;
    this.chars -= names.chars;
    names.size = 0;
    names.chars = 0;
    names.aliases.clear();
    names.types.clear();
  }
}
