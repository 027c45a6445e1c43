import type { FieldValue } from '../../../../shared/records/record.js';
import { storedMicros } from './gap-spans.js';
import type { Converted } from './values.js';

/** A tag's last value as stored (read once, when the stream's records start: LastValues). */
interface LastValue {
  readonly node: string;
  /** Source time, epoch µs. */
  readonly micros: number;
  readonly status: string;
  readonly value: Converted;
}

/**
 * The stream state holding the last value of every tag of a stream, by position: one entry per tag,
 * `[<µs>,"<status>",<value or [values]>]` or 0 (none yet), in the order of LAST_VALUE_LAYOUT_KEY.
 * Written with every commit that changes a last value.
 */
export const LAST_VALUE_LIST_KEY = 'last_value_list';
/**
 * The tags of LAST_VALUE_LIST_KEY's positions: `[["<exportname>","<node>"], …]` (node "" for a tag
 * without a value). Written in the same transaction as the list, only when it changes (a restart,
 * a tag with a new node): the names and nodes were two thirds of each row before
 * (docs/performance.md, issue 40 point 2).
 */
export const LAST_VALUE_LAYOUT_KEY = 'last_value_layout';
/**
 * The row per stream of builds before the list (still read when a stream has no list yet: an agent
 * updated in place): `{"<exportname>":["<node>",<µs>,"<status>",<value or [values]>], …}`. It had
 * replaced one row per tag (`tag:<exportname>`, read too): 20,000 tag rows upserted a second cost
 * SQLite ~80–100 ms of CPU, 100 stream rows ~6 (docs/performance.md).
 */
export const LAST_VALUES_KEY = 'last_values';
/** The row per tag of builds before LAST_VALUES_KEY: `JSON.stringify({ t, node, columns })`. */
const OLD_PREFIX = 'tag:';

/**
 * JSON texts of statuses: a server sends few distinct ones, and every value has one. Short texts
 * only (a string tag value may come here too: at most 1024 of 64 characters are kept).
 */
const statusTexts = new Map<string, string>();
const MAX_STATUS_TEXTS = 1024;
const MAX_STATUS_CHARS = 64;
export function statusText(status: string): string {
  let text = statusTexts.get(status);
  if (text === undefined) {
    text = JSON.stringify(status);
    if (statusTexts.size < MAX_STATUS_TEXTS && status.length <= MAX_STATUS_CHARS) statusTexts.set(status, text);
  }
  return text;
}

/**
 * The pieces as one flat string. V8 keeps a string built by `+` or a template as a tree of its
 * pieces (a cons string: a 32-byte node per piece, each piece an object of its own) until something
 * reads it whole; a tree kept for long costs ~4 times the flat text, and each tag's last value is
 * kept: 20,000 tags held ~6 MB of such trees, made anew every second and promoted to the old
 * generation (docs/performance.md, issue 40 point 2). `join` writes one sequential string.
 */
export const flatText = (...pieces: (string | number)[]): string => pieces.join('');

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The last values stored for these tags: the stream's list, else (a stream last committed by an
 * older build) its row, else its rows per tag. Anything unreadable is no last value: that tag's
 * next value is recorded (at least once, never lost).
 */
function loadLastValues(exportnames: Iterable<string>, load: (key: string) => string | undefined): Map<string, LastValue> {
  const wanted = new Set(exportnames);
  const out = new Map<string, LastValue>();
  const listText = load(LAST_VALUE_LIST_KEY);
  const layoutText = load(LAST_VALUE_LAYOUT_KEY);
  if (listText !== undefined && layoutText !== undefined) {
    const list = parseJson(listText);
    const layout = parseJson(layoutText);
    if (!Array.isArray(list) || !Array.isArray(layout) || list.length !== layout.length) return out;
    layout.forEach((tag: unknown, i) => {
      if (!Array.isArray(tag) || tag.length !== 2 || typeof tag[0] !== 'string' || !wanted.has(tag[0]) || !Array.isArray(list[i])) return;
      const last = fromEntry([tag[1], ...(list[i] as unknown[])]);
      if (last) out.set(tag[0], last);
    });
    return out;
  }
  const row = load(LAST_VALUES_KEY);
  if (row !== undefined) {
    const parsed = parseJson(row);
    if (parsed === undefined || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
    for (const [exportname, item] of Object.entries(parsed)) {
      const last = wanted.has(exportname) ? fromEntry(item) : undefined;
      if (last) out.set(exportname, last);
    }
    return out;
  }
  for (const exportname of wanted) {
    const last = fromFingerprint(exportname, load(`${OLD_PREFIX}${exportname}`));
    if (last) out.set(exportname, last);
  }
  return out;
}

const isScalar = (v: unknown): v is FieldValue => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

function fromEntry(item: unknown): LastValue | undefined {
  if (!Array.isArray(item) || item.length !== 4) return undefined;
  const [node, micros, status, value] = item as unknown[];
  if (typeof node !== 'string' || typeof micros !== 'number' || !Number.isSafeInteger(micros) || typeof status !== 'string') return undefined;
  if (Array.isArray(value) && value.every(isScalar)) return { node, micros, status, value: { kind: 'array', values: value } };
  return isScalar(value) ? { node, micros, status, value: { kind: 'scalar', value } } : undefined;
}

/** A row of the per-tag format: `{ t, node, columns: { <exportname> or <exportname>_<i>…, <exportname>_status } }`. */
function fromFingerprint(exportname: string, saved: string | undefined): LastValue | undefined {
  const micros = storedMicros(saved);
  if (saved === undefined || micros === undefined) return undefined;
  const { node, columns } = JSON.parse(saved) as { node?: unknown; columns?: unknown };
  if (typeof node !== 'string' || columns === null || typeof columns !== 'object' || Array.isArray(columns)) return undefined;
  const statusName = `${exportname}_status`;
  const status = (columns as Record<string, unknown>)[statusName];
  if (typeof status !== 'string') return undefined;
  const rest = Object.entries(columns).filter(([name]) => name !== statusName);
  const values = rest.map(([, v]) => v);
  if (!values.every(isScalar)) return undefined;
  const scalar = rest.length === 1 && rest[0]![0] === exportname;
  return { node, micros: Number(micros), status, value: scalar ? { kind: 'scalar', value: values[0]! } : { kind: 'array', values } };
}

/** How a slot keeps its value: none yet, a number, another scalar (string, boolean, null), an array's JSON text. */
const NONE = 0;
const NUMBER = 1;
const SCALAR = 2;
const ARRAY = 3;

/**
 * Last values by slot, in parallel arrays: the table's own (committed) or a batch's (pending).
 * Numbers stay in arrays of doubles: no object per value is kept from one second to the next.
 */
class Columns {
  /** The node of the value (an older configuration's, for a value stored before a tag moved). */
  readonly nodes: string[] = [];
  readonly kinds: number[] = [];
  readonly micros: number[] = [];
  readonly numbers: number[] = [];
  /** A string, boolean or null scalar; an array's JSON text. */
  readonly others: FieldValue[] = [];
  readonly statuses: string[] = [];

  set(at: number, node: string, micros: number, status: string, converted: Converted): void {
    this.nodes[at] = node;
    this.micros[at] = micros;
    this.statuses[at] = status;
    if (converted.kind === 'scalar' && typeof converted.value === 'number') {
      this.kinds[at] = NUMBER;
      this.numbers[at] = converted.value;
      this.others[at] = null;
    } else {
      this.kinds[at] = converted.kind === 'array' ? ARRAY : SCALAR;
      this.numbers[at] = 0;
      this.others[at] = converted.kind === 'array' ? JSON.stringify(converted.values) : converted.kind === 'scalar' ? converted.value : null;
    }
  }

  /** A slot without a value. */
  add(): void {
    this.nodes.push('');
    this.kinds.push(NONE);
    this.micros.push(0);
    this.numbers.push(0);
    this.others.push(null);
    this.statuses.push('');
  }

  copy(from: Columns, at: number, to: number): void {
    this.nodes[to] = from.nodes[at]!;
    this.kinds[to] = from.kinds[at]!;
    this.micros[to] = from.micros[at]!;
    this.numbers[to] = from.numbers[at]!;
    this.others[to] = from.others[at]!;
    this.statuses[to] = from.statuses[at]!;
  }

  same(at: number, node: string, micros: number, status: string, converted: Converted): boolean {
    const kind = this.kinds[at];
    if (kind === NONE || kind === undefined || this.micros[at] !== micros || this.statuses[at] !== status || this.nodes[at] !== node) return false;
    if (converted.kind === 'array') return kind === ARRAY && this.others[at] === JSON.stringify(converted.values);
    if (converted.kind === 'scalar' && typeof converted.value === 'number') return kind === NUMBER && this.numbers[at] === converted.value;
    return kind === SCALAR && this.others[at] === (converted.kind === 'scalar' ? converted.value : null);
  }

  /**
   * Pushes the slot's entry to `parts`: `[<µs>,"<status>",<value>]`. `time` holds the text of the
   * source time pushed last: a machine's tags share theirs.
   */
  entry(at: number, parts: (string | number | boolean)[], time: { micros: number; text: string }): void {
    const kind = this.kinds[at];
    const other = this.others[at];
    // A finite number or a boolean is its own JSON text in a join (values.ts lets no NaN or
    // infinity through): no string per value.
    const value = kind === NUMBER ? this.numbers[at]! : kind === ARRAY ? (other as string) : typeof other === 'boolean' ? other : JSON.stringify(other);
    const micros = this.micros[at]!;
    if (micros !== time.micros) {
      time.micros = micros;
      time.text = String(micros);
    }
    parts.push('[', time.text, ',', statusText(this.statuses[at]!), ',', value, ']');
  }
}

/** The values a batch would make the last ones (LastValues.begin): kept apart until it is committed. */
export class PendingValues extends Columns {
  /** The table's slot of each value. */
  readonly slots: number[] = [];
  /** The nodes by slot of the layout this batch writes (LAST_VALUE_LAYOUT_KEY), if it writes one. */
  layout: string[] | undefined;

  get size(): number {
    return this.slots.length;
  }
}

/**
 * The last committed value of every tag of a stream (one slot per exportname), and the stream's
 * stored row of them (LAST_VALUES_KEY). A value equal to a tag's last one (same node, source time,
 * status and value) is the same sample seen again — after a restart, or a poll of an unchanged
 * tag — and is not recorded twice; a rejected value counts as the empty value it is recorded as. A batch's values go to a PendingValues first: they become
 * the last ones only when the batch is committed. Kept in arrays, not an object per tag: 20,000
 * tags changing every second made 20,000 such objects with their texts a second, each kept a second
 * and so promoted to the old generation (docs/performance.md, issue 40 point 2).
 */
export class LastValues {
  private readonly slotOf = new Map<string, number>();
  /** Each slot's exportname. */
  private readonly names: string[] = [];
  /** The nodes by slot of the layout stored last (undefined: none stored by this run yet). */
  private layout: string[] | undefined;
  private readonly committed = new Columns();
  /** During a batch: each slot's index in the batch's values, or -1. */
  private readonly pendingAt: number[] = [];

  constructor(exportnames: readonly string[], load: (key: string) => string | undefined) {
    for (const exportname of exportnames) this.slot(exportname);
    loadLastValues(exportnames, load).forEach((last, exportname) => this.committed.set(this.slot(exportname), last.node, last.micros, last.status, last.value));
  }

  /** The exportname's slot (a new one for a name the stream did not have). */
  slot(exportname: string): number {
    let at = this.slotOf.get(exportname);
    if (at === undefined) {
      at = this.pendingAt.length;
      this.slotOf.set(exportname, at);
      this.names.push(exportname);
      this.pendingAt.push(-1);
      this.committed.add();
    }
    return at;
  }

  /** Source time (µs) of the exportname's last committed value. */
  lastMicros(exportname: string): number | undefined {
    const at = this.slotOf.get(exportname);
    return at === undefined || this.committed.kinds[at] === NONE ? undefined : this.committed.micros[at];
  }

  /** Forgets the last values, and that a layout was stored (a restream clears the stream's state). */
  clear(): void {
    this.committed.kinds.fill(NONE);
    this.layout = undefined;
  }

  /** Whether the value equals the slot's last one: the batch's own, else the committed one. */
  isSame(pending: PendingValues, slot: number, node: string, micros: number, status: string, converted: Converted): boolean {
    const at = this.pendingAt[slot]!;
    return at >= 0 ? pending.same(at, node, micros, status, converted) : this.committed.same(slot, node, micros, status, converted);
  }

  /** The value becomes the slot's last one in the batch. */
  set(pending: PendingValues, slot: number, node: string, micros: number, status: string, converted: Converted): void {
    let at = this.pendingAt[slot]!;
    if (at < 0) {
      at = pending.slots.length;
      pending.slots.push(slot);
      this.pendingAt[slot] = at;
    }
    pending.set(at, node, micros, status, converted);
  }

  /**
   * The stream's stored state: its list (the batch's values over the committed ones) and, when the
   * tags or their nodes are not those stored last, its layout.
   */
  stateOf(pending: PendingValues): Record<string, string> {
    const parts: (string | number | boolean)[] = ['['];
    const nodes: string[] = [];
    const time = { micros: NaN, text: '' };
    for (let slot = 0; slot < this.pendingAt.length; slot += 1) {
      const at = this.pendingAt[slot]!;
      if (slot > 0) parts.push(',');
      if (at >= 0) {
        pending.entry(at, parts, time);
        nodes.push(pending.nodes[at]!);
      } else if (this.committed.kinds[slot] !== NONE) {
        this.committed.entry(slot, parts, time);
        nodes.push(this.committed.nodes[slot]!);
      } else {
        parts.push(0);
        nodes.push('');
      }
    }
    parts.push(']');
    // One flat text (see flatText): built by `+=`, a stream's row was a tree of a piece per tag.
    const state: Record<string, string> = { [LAST_VALUE_LIST_KEY]: parts.join('') };
    const stored = this.layout;
    if (stored === undefined || stored.length !== nodes.length || nodes.some((node, slot) => node !== stored[slot])) {
      state[LAST_VALUE_LAYOUT_KEY] = JSON.stringify(nodes.map((node, slot) => [this.names[slot], node]));
      pending.layout = nodes;
    }
    return state;
  }

  /** The batch's lookups are over (its values stay in `pending` until committed). */
  end(pending: PendingValues): void {
    for (const slot of pending.slots) this.pendingAt[slot] = -1;
  }

  /** The batch was committed: its values are the last ones now. */
  commit(pending: PendingValues): void {
    pending.slots.forEach((slot, at) => this.committed.copy(pending, at, slot));
    if (pending.layout) this.layout = pending.layout;
  }
}
