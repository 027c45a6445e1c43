/**
 * Glob patterns of file_filter / path_filter → pattern trees (automaton.ts). `*` and `?` stay
 * within one path segment, `**` crosses folders (`**\/` is zero or more whole folders), `[abc]`,
 * `[a-z]` and `[!abc]` / `[^abc]` are classes of one character (never "/"); a "[" without "]" is
 * itself; every other character, "\" included, is itself.
 */
import type { PatternNode } from './automaton.js';

const SLASH = 0x2f;

export class PatternSyntaxError extends Error {}

const char = (test: (codePoint: number) => boolean): PatternNode => ({ type: 'char', test });
const literal = (codePoint: number): PatternNode => char((c) => c === codePoint);
const notSlash = char((c) => c !== SLASH);
const anything = char(() => true);

/** A class `[…]` starting at `open` (the "["); undefined when it has no closing "]". */
function parseClass(pattern: string[], open: number): { node: PatternNode; end: number } | undefined {
  let i = open + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i += 1;
  const first = i;
  // "]" right after "[" (or "[!") belongs to the class, as in shells.
  let close = -1;
  for (let k = first + (pattern[first] === ']' ? 1 : 0); k < pattern.length; k += 1)
    if (pattern[k] === ']') {
      close = k;
      break;
    }
  if (close < 0) return undefined;
  const ranges: [number, number][] = [];
  for (let k = first; k < close; k += 1) {
    const low = pattern[k]!.codePointAt(0)!;
    if (pattern[k + 1] === '-' && k + 2 < close) {
      const high = pattern[k + 2]!.codePointAt(0)!;
      if (high < low) throw new PatternSyntaxError(`the range ${pattern[k]}-${pattern[k + 2]} in ${pattern.slice(open, close + 1).join('')} runs backwards; write it low to high (e.g. ${pattern[k + 2]}-${pattern[k]})`);
      ranges.push([low, high]);
      k += 2;
    } else ranges.push([low, low]);
  }
  if (ranges.length === 0) throw new PatternSyntaxError(`${pattern.slice(open, close + 1).join('')} is an empty character class`);
  const inClass = (c: number) => ranges.some(([low, high]) => c >= low && c <= high);
  return { node: char((c) => c !== SLASH && inClass(c) !== negated), end: close };
}

/** Parses a glob. Throws PatternSyntaxError for a pattern that cannot mean anything. */
export function parseGlob(source: string): PatternNode {
  const pattern = Array.from(source);
  const items: PatternNode[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        i += 1;
        if (pattern[i + 1] === '/') {
          // `**/`: zero or more whole folders.
          i += 1;
          items.push({ type: 'repeat', item: { type: 'concat', items: [{ type: 'repeat', item: anything, min: 0, max: Infinity }, literal(SLASH)] }, min: 0, max: 1 });
        } else items.push({ type: 'repeat', item: anything, min: 0, max: Infinity });
      } else items.push({ type: 'repeat', item: notSlash, min: 0, max: Infinity });
    } else if (c === '?') {
      items.push(notSlash);
    } else if (c === '[') {
      const parsed = parseClass(pattern, i);
      if (parsed) {
        items.push(parsed.node);
        i = parsed.end;
      } else items.push(literal(0x5b));
    } else items.push(literal(c.codePointAt(0)!));
  }
  return { type: 'concat', items };
}
