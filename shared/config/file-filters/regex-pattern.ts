/**
 * The regular expressions a file filter may use, parsed into pattern trees (automaton.ts) so that
 * they are matched in linear time, never by backtracking. The subset common to Python's `re` and
 * JavaScript: literals, `.`, classes `[a-z0-9_]` / `[^…]`, `\d \w \s` (and `\D \W \S`), escaped
 * punctuation, groups `(…)` `(?:…)` `(?P<name>…)` `(?<name>…)`, alternation `|`, quantifiers
 * `* + ? {n} {n,} {n,m}` (lazy `?` suffixes accepted: they change nothing for a yes/no match),
 * `^` and `$`, and a leading `(?i)` for ignoring case. Refused with a reason: backreferences and
 * lookaround (they need backtracking), word boundaries, possessive quantifiers.
 */
import type { PatternNode } from './automaton.js';
import { PatternSyntaxError } from './glob-pattern.js';

/** Repetition counts above this are refused (`a{100000}` would build a huge automaton). */
const MAX_REPEAT = 1000;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWord = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || (c > 0x7f && /[\p{L}\p{N}]/u.test(String.fromCodePoint(c)));
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || (c > 0x7f && /\s/u.test(String.fromCodePoint(c)));

type Test = (c: number) => boolean;
const char = (test: Test): PatternNode => ({ type: 'char', test });

const SHORTHANDS: Record<string, Test> = {
  d: isDigit,
  D: (c) => !isDigit(c),
  w: isWord,
  W: (c) => !isWord(c),
  s: isSpace,
  S: (c) => !isSpace(c),
};

const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, r: 0x0d, f: 0x0c, v: 0x0b, '0': 0 };

class RegexParser {
  private position = 0;
  private readonly text: string[];

  constructor(source: string) {
    this.text = Array.from(source);
  }

  private fail(message: string): never {
    throw new PatternSyntaxError(`${message} (at character ${this.position + 1})`);
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.position + offset];
  }

  private startsWith(word: string): boolean {
    return this.text.slice(this.position, this.position + word.length).join('') === word;
  }

  parse(): PatternNode {
    const node = this.alternation();
    if (this.position < this.text.length) this.fail(this.peek() === ')' ? 'unbalanced ")"' : `unexpected "${this.peek()}"`);
    return node;
  }

  private alternation(): PatternNode {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.position += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { type: 'alt', options };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.position < this.text.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified(this.atom()));
    return { type: 'concat', items };
  }

  private quantified(atom: PatternNode): PatternNode {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{' && this.braces()) [min, max] = this.braces()!;
      else return node;
      if (node.type === 'assert') this.fail(`"${c}" cannot repeat an anchor`);
      if (c === '{') this.position = this.text.indexOf('}', this.position) + 1;
      else this.position += 1;
      if (this.peek() === '?') this.position += 1; // lazy: the same yes/no answer
      else if (this.peek() === '+') this.fail('possessive quantifiers ("*+", "++") are not supported');
      if (this.peek() === '*' || this.peek() === '+' || (this.peek() === '{' && this.braces())) this.fail('a quantifier cannot follow another quantifier');
      node = { type: 'repeat', item: node, min, max };
    }
  }

  /** `{n}`, `{n,}`, `{n,m}` at the current position, or undefined (then "{" is a literal, as in Python). */
  private braces(): [number, number] | undefined {
    const close = this.text.indexOf('}', this.position);
    if (close < 0) return undefined;
    const match = /^\{(\d+)(,(\d*))?\}$/.exec(this.text.slice(this.position, close + 1).join(''));
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.fail(`repetition counts above ${MAX_REPEAT} are not supported`);
    if (max < min) this.fail(`{${min},${max}} repeats at most fewer times than at least`);
    return [min, max];
  }

  private atom(): PatternNode {
    const c = this.peek()!;
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '\\') {
      const escaped = this.escape(false);
      return char(typeof escaped === 'number' ? (x) => x === escaped : escaped);
    }
    this.position += 1;
    if (c === '.') return char((code) => code !== 0x0a);
    if (c === '^') return { type: 'assert', at: 'start' };
    if (c === '$') return { type: 'assert', at: 'end' };
    if (c === '*' || c === '+' || c === '?') {
      this.position -= 1;
      this.fail(`"${c}" has nothing to repeat`);
    }
    const code = c.codePointAt(0)!;
    return char((x) => x === code);
  }

  private group(): PatternNode {
    this.position += 1;
    if (this.peek() === '?') {
      if (this.startsWith('?:')) this.position += 2;
      else if (this.startsWith('?P<') || (this.startsWith('?<') && this.peek(2) !== '=' && this.peek(2) !== '!')) {
        const close = this.text.indexOf('>', this.position);
        if (close < 0) this.fail('a group name is not closed with ">"');
        this.position = close + 1;
      } else if (this.startsWith('?=') || this.startsWith('?!') || this.startsWith('?<=') || this.startsWith('?<!'))
        this.fail('lookahead and lookbehind ("(?=", "(?!", "(?<=", "(?<!") are not supported: they need a backtracking matcher');
      else if (this.startsWith('?P=')) this.fail('backreferences are not supported: they need a backtracking matcher');
      else this.fail(`"(${this.text.slice(this.position, this.position + 2).join('')}" is not supported; use (…) or (?:…)`);
    }
    const inner = this.alternation();
    if (this.peek() !== ')') this.fail('a "(" is not closed with ")"');
    this.position += 1;
    return inner;
  }

  /** An escape at the current "\\": one code point, or a test (\d, \w …). Inside a class, `\b` is a backspace. */
  private escape(inClass: boolean): number | Test {
    const next = this.peek(1);
    if (next === undefined) this.fail('the pattern ends with a lone "\\"');
    this.position += 2;
    if (SHORTHANDS[next]) return SHORTHANDS[next];
    if (/[1-9]/.test(next)) this.fail('backreferences ("\\1") are not supported: they need a backtracking matcher');
    if (inClass && next === 'b') return 0x08;
    if (!inClass && (next === 'b' || next === 'B' || next === 'A' || next === 'Z' || next === 'z')) this.fail(`"\\${next}" is not supported; the whole name is matched anyway (use ^ and $ if you want them)`);
    if (CONTROL_ESCAPES[next] !== undefined) return CONTROL_ESCAPES[next];
    if (next === 'x' || next === 'u') {
      const length = next === 'x' ? 2 : 4;
      const digits = this.text.slice(this.position, this.position + length).join('');
      if (!(next === 'x' ? /^[0-9a-fA-F]{2}$/ : /^[0-9a-fA-F]{4}$/).test(digits)) this.fail(`"\\${next}" needs ${length} hexadecimal digits`);
      this.position += length;
      return parseInt(digits, 16);
    }
    if (/[A-Za-z0-9]/.test(next)) this.fail(`"\\${next}" is not a known escape`);
    return next.codePointAt(0)!;
  }

  private characterClass(): PatternNode {
    const open = this.position;
    this.position += 1;
    const negated = this.peek() === '^';
    if (negated) this.position += 1;
    const tests: Test[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.peek() === undefined) {
        this.position = open;
        this.fail('a "[" is not closed with "]"');
      }
      first = false;
      const low = this.classMember();
      if (typeof low === 'number' && this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.position += 1;
        const high = this.classMember();
        if (typeof high !== 'number') this.fail('a range cannot end in a class such as \\d');
        if (high < low) this.fail(`the range ${String.fromCodePoint(low)}-${String.fromCodePoint(high)} runs backwards`);
        tests.push((c) => c >= low && c <= high);
      } else if (typeof low === 'number') tests.push((c) => c === low);
      else tests.push(low);
    }
    this.position += 1;
    return char((c) => tests.some((test) => test(c)) !== negated);
  }

  /** One member of a class: a code point, or a test for an escape such as \d. */
  private classMember(): number | Test {
    if (this.peek() === '\\') return this.escape(true);
    const c = this.peek()!;
    this.position += 1;
    return c.codePointAt(0)!;
  }
}

/** Parses a regular expression of the supported subset; `ignoreCase` from a leading `(?i)`. */
export function parseRegex(source: string): { node: PatternNode; ignoreCase: boolean } {
  const ignoreCase = source.startsWith('(?i)');
  return { node: new RegexParser(ignoreCase ? source.slice(4) : source).parse(), ignoreCase };
}
