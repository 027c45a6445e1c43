/**
 * A pattern as a nondeterministic automaton (Thompson's construction), matched by simulating every
 * state at once: the time to match a name is proportional to its length times the automaton's
 * size, whatever the pattern. A backtracking matcher (JavaScript's RegExp) can take exponential
 * time instead: `*a*a*a*a*a*a*a*a*b` against 200 × "a" froze the agent's main thread. The sets of
 * states met are cached as states of a deterministic automaton, built lazily as names are matched
 * (as RE2 does): a name then costs one table lookup per character. Pure; no Node built-ins.
 */

/** What a pattern parses into; both globs and the regular-expression subset build it. */
export type PatternNode =
  | { type: 'char'; test: (codePoint: number) => boolean }
  | { type: 'concat'; items: PatternNode[] }
  | { type: 'alt'; options: PatternNode[] }
  | { type: 'repeat'; item: PatternNode; min: number; max: number }
  | { type: 'assert'; at: 'start' | 'end' };

/** More states than this make a pattern "too complex" (e.g. `(a{100}){100}`): memory stays bounded. */
export const MAX_STATES = 20_000;
/** Cached deterministic states per pattern; beyond this, names are matched by plain simulation. */
const MAX_CACHED_STATES = 2000;

export class PatternTooComplex extends Error {}

const CHAR = 0;
const SPLIT = 1;
const ASSERT_START = 2;
const ASSERT_END = 3;
const ACCEPT = 4;

interface State {
  kind: number;
  test?: (codePoint: number) => boolean;
  /** CHAR, ASSERT_*: the one next state; SPLIT: every next state. */
  next: number[];
}

/** Lower and upper case of a code point (itself when it has none or the case takes two units). */
function caseVariants(codePoint: number): [number, number] {
  if (codePoint < 0x80) {
    if (codePoint >= 0x41 && codePoint <= 0x5a) return [codePoint + 32, codePoint];
    if (codePoint >= 0x61 && codePoint <= 0x7a) return [codePoint, codePoint - 32];
    return [codePoint, codePoint];
  }
  const text = String.fromCodePoint(codePoint);
  const lower = text.toLowerCase();
  const upper = text.toUpperCase();
  return [lower.length === text.length ? lower.codePointAt(0)! : codePoint, upper.length === text.length ? upper.codePointAt(0)! : codePoint];
}

/** A set of automaton states met while matching, cached with its transitions. */
interface CachedState {
  /** Character-consuming, accepting and pending end-anchor states, sorted. */
  states: number[];
  accepting: boolean;
  /** Next cached state per ASCII character (-1: not computed yet). */
  ascii: Int32Array;
  /** Next cached state for other characters. */
  other: Map<number, number>;
}

/** A compiled pattern: `matches(text)` says whether the whole text matches. */
export class Automaton {
  private readonly states: State[] = [];
  private readonly start: number;
  private readonly marks: Int32Array;
  private readonly stack: number[] = [];
  private generation = 0;
  private readonly cached: CachedState[] = [];
  private readonly cachedIndex = new Map<string, number>();
  private cachedStart = -1;

  constructor(
    root: PatternNode,
    private readonly ignoreCase: boolean,
  ) {
    const accept = this.add({ kind: ACCEPT, next: [] });
    this.start = this.build(root, accept);
    this.marks = new Int32Array(this.states.length).fill(-1);
  }

  get size(): number {
    return this.states.length;
  }

  private add(state: State): number {
    if (this.states.length >= MAX_STATES) throw new PatternTooComplex(`more than ${MAX_STATES} automaton states`);
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Builds `node` so that it continues at state `next`; returns its first state. */
  private build(node: PatternNode, next: number): number {
    switch (node.type) {
      case 'char':
        return this.add({ kind: CHAR, test: node.test, next: [next] });
      case 'assert':
        return this.add({ kind: node.at === 'start' ? ASSERT_START : ASSERT_END, next: [next] });
      case 'concat': {
        let state = next;
        for (let i = node.items.length - 1; i >= 0; i -= 1) state = this.build(node.items[i]!, state);
        return state;
      }
      case 'alt':
        return this.add({ kind: SPLIT, next: node.options.map((option) => this.build(option, next)) });
      case 'repeat': {
        let state = next;
        if (node.max === Infinity) {
          // A loop: the split either enters the item (which comes back to the split) or leaves.
          const loop = this.add({ kind: SPLIT, next: [] });
          this.states[loop]!.next = [this.build(node.item, loop), next];
          state = loop;
        } else {
          for (let k = node.min; k < node.max; k += 1) state = this.add({ kind: SPLIT, next: [this.build(node.item, state), next] });
        }
        for (let k = 0; k < node.min; k += 1) state = this.build(node.item, state);
        return state;
      }
    }
  }

  /**
   * Adds to `into` the states reachable from `from` without consuming a character (each once per
   * generation). Before the end of the text an end anchor is kept as pending.
   */
  private close(into: number[], from: number, atStart: boolean, atEnd: boolean): void {
    const stack = this.stack;
    stack.length = 0;
    stack.push(from);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (this.marks[s] === this.generation) continue;
      this.marks[s] = this.generation;
      const entry = this.states[s]!;
      if (entry.kind === SPLIT) {
        for (let k = entry.next.length - 1; k >= 0; k -= 1) stack.push(entry.next[k]!);
      } else if (entry.kind === ASSERT_START) {
        if (atStart) stack.push(entry.next[0]!);
      } else if (entry.kind === ASSERT_END && atEnd) {
        stack.push(entry.next[0]!);
      } else into.push(s);
    }
  }

  /** The states after consuming `codePoint` in `states`. */
  private advance(states: readonly number[], codePoint: number, atEnd: boolean): number[] {
    const [lower, upper] = this.ignoreCase ? caseVariants(codePoint) : [codePoint, codePoint];
    const out: number[] = [];
    this.generation += 1;
    for (const s of states) {
      const entry = this.states[s]!;
      if (entry.kind !== CHAR) continue;
      const test = entry.test!;
      if (test(codePoint) || (this.ignoreCase && (test(lower) || test(upper)))) this.close(out, entry.next[0]!, false, atEnd);
    }
    return out;
  }

  /** Whether the text may end in `states`: an accepting state, or a pending end anchor leading to one. */
  private accepts(states: readonly number[]): boolean {
    const ends: number[] = [];
    this.generation += 1;
    for (const s of states) {
      const kind = this.states[s]!.kind;
      if (kind === ACCEPT) return true;
      if (kind === ASSERT_END) this.close(ends, this.states[s]!.next[0]!, false, true);
    }
    return ends.some((s) => this.states[s]!.kind === ACCEPT);
  }

  /** The cached state for a set of states, or -1 when the cache is full. */
  private cache(states: number[]): number {
    states.sort((a, b) => a - b);
    const key = states.join(',');
    const known = this.cachedIndex.get(key);
    if (known !== undefined) return known;
    if (this.cached.length >= MAX_CACHED_STATES) return -1;
    this.cached.push({ states, accepting: this.accepts(states), ascii: new Int32Array(128).fill(-1), other: new Map() });
    this.cachedIndex.set(key, this.cached.length - 1);
    return this.cached.length - 1;
  }

  /** True when the whole of `text` matches. */
  matches(text: string): boolean {
    if (text.length === 0) return this.simulate(text);
    if (this.cachedStart < 0) {
      const states: number[] = [];
      this.generation += 1;
      this.close(states, this.start, true, false);
      this.cachedStart = this.cache(states);
      if (this.cachedStart < 0) return this.simulate(text);
    }
    let current = this.cachedStart;
    for (let position = 0; position < text.length; ) {
      const [codePoint, width] = codePointAt(text, position);
      position += width;
      const entry = this.cached[current]!;
      let next = codePoint < 128 ? entry.ascii[codePoint]! : (entry.other.get(codePoint) ?? -1);
      if (next < 0) {
        next = this.cache(this.advance(entry.states, codePoint, false));
        if (next < 0) return this.simulate(text);
        if (codePoint < 128) entry.ascii[codePoint] = next;
        else entry.other.set(codePoint, next);
      }
      current = next;
      if (this.cached[current]!.states.length === 0) return false;
    }
    return this.cached[current]!.accepting;
  }

  /** Matching without the cache: every state at once, one character after the other. */
  private simulate(text: string): boolean {
    let states: number[] = [];
    this.generation += 1;
    this.close(states, this.start, true, text.length === 0);
    for (let position = 0; position < text.length && states.length > 0; ) {
      const [codePoint, width] = codePointAt(text, position);
      position += width;
      states = this.advance(states, codePoint, position === text.length);
    }
    return this.accepts(states);
  }
}

/** The code point at `position` and its width in code units ("?" is one character, even an emoji). */
function codePointAt(text: string, position: number): [number, number] {
  const code = text.charCodeAt(position);
  if (code >= 0xd800 && code <= 0xdbff && position + 1 < text.length) {
    const low = text.charCodeAt(position + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return [(code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000, 2];
  }
  return [code, 1];
}
