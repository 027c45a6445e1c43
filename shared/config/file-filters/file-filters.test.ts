import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFileFilter, regexLookingGlob } from './index.js';

const compile = (source: string, options: { path?: boolean; ignoreCase?: boolean } = {}) => {
  const compiled = compileFileFilter(source, { path: options.path ?? false, ignoreCase: options.ignoreCase ?? false });
  if (!compiled.filter) throw new Error(compiled.problem);
  return compiled.filter;
};
const matches = (source: string, path: string, options?: { path?: boolean; ignoreCase?: boolean }) => compile(source, options).matches(path);

describe('globs', () => {
  it.each([
    ['*.csv', 'press_1.csv', true],
    ['*.csv', 'press_1.csv.tmp', false],
    ['*.csv', 'line1/press_1.csv', true], // no "/" in the pattern: the file name counts
    ['press_?.csv', 'press_1.csv', true],
    ['press_?.csv', 'press_12.csv', false],
    ['press_[0-9].csv', 'press_7.csv', true],
    ['press_[!0-9].csv', 'press_7.csv', false],
    ['press_[^0-9].csv', 'press_x.csv', true],
    ['[]]x', ']x', true],
    ['data[1.csv', 'data[1.csv', true], // an unclosed "[" is itself
    ['line1/*.csv', 'line1/a.csv', true],
    ['line1/*.csv', 'line2/a.csv', false],
    ['line1/*.csv', 'line1/sub/a.csv', false], // "*" stays in one folder
    ['**/a.csv', 'a.csv', true], // "**/" is zero or more folders
    ['**/a.csv', 'x/y/a.csv', true],
    ['line1/**/a.csv', 'line1/a.csv', true],
    ['line1/**/a.csv', 'line1/x/y/a.csv', true],
    ['line1/**/a.csv', 'line1/xa.csv', false],
    ['logs/**', 'logs/2026/01/a.csv', true],
    ['station3.csv', 'station3.csv', true],
    ['station3.csv', 'station3xcsv', false], // "." is itself
    ['a\\b.csv', 'a\\b.csv', true], // "\" is itself
    ['Prüfstand_*.csv', 'Prüfstand_1.csv', true],
    ['?.csv', '😀.csv', true], // one character, even outside the basic plane
  ])('%s against %s → %s', (pattern, path, expected) => expect(matches(pattern, path)).toBe(expected));

  it('ignores case only when asked (Windows shares)', () => {
    expect(matches('PRESS_*.CSV', 'press_1.csv')).toBe(false);
    expect(matches('PRESS_*.CSV', 'press_1.csv', { ignoreCase: true })).toBe(true);
    expect(matches('[A-C]*.csv', 'b1.csv', { ignoreCase: true })).toBe(true);
    expect(matches('ÄRGER.csv', 'ärger.csv', { ignoreCase: true })).toBe(true);
  });

  it('path_filter entries are matched against the relative path even without "/"', () => {
    expect(matches('*.csv', 'line1/a.csv', { path: true })).toBe(false);
    expect(matches('*/*.csv', 'line1/a.csv', { path: true })).toBe(true);
    expect(matches('**', 'line1/a.csv', { path: true })).toBe(true);
  });

  it('answers the pathological pattern of issue 16 without backtracking', () => {
    const filter = compile('*a*a*a*a*a*a*a*a*b');
    expect(filter.matches(`${'a'.repeat(200)}.csv`)).toBe(false);
    expect(filter.matches(`${'a'.repeat(10_000)}`)).toBe(false);
    expect(filter.matches('a1a2a3a4a5a6a7a8b')).toBe(true);
  });

  it.each([
    ['[z-a].csv', /range z-a .* runs backwards/],
    ['', /must not be empty/],
    ['x'.repeat(1001), /at most 1000/],
  ])('refuses %s with a reason', (pattern, reason) => {
    expect(compileFileFilter(pattern, { path: false, ignoreCase: false }).problem).toMatch(reason);
  });

  it('agrees with the previous RegExp translation on patterns without classes or "**"', () => {
    // The translation globs had before (glob.ts): what plants already use keeps its meaning.
    const legacy = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
    const piece = fc.constantFrom('a', 'b', '.', '_', '*', '?', '-', '1', '+', '(', '$');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', '.', '_', '-', '1', '+', '(', '$'), { maxLength: 10 }), (pattern, name) => {
        const source = pattern.join('');
        expect(matches(source, name.join(''))).toBe(legacy(source).test(name.join('')));
      }),
      { numRuns: 500 },
    );
  });
});

describe('regular expressions (regex:)', () => {
  it.each([
    ['regex:.*station1.*', 'station1_2026.csv', true],
    ['regex:.*station1.*', 'station2.csv', false],
    ['regex:press_\\d{3}\\.csv', 'press_042.csv', true],
    ['regex:press_\\d{3}\\.csv', 'press_42.csv', false],
    ['regex:station1', 'station1_2026.csv', false], // the whole name must match
    ['regex:^(oven|press)_[a-z]+\\.(csv|txt)$', 'oven_b.txt', true],
    ['regex:(?:ab)+c?', 'ababab', true],
    ['regex:(?P<line>line\\d)_.*', 'line4_x.csv', true],
    ['regex:(?i)PRESS.*', 'press.csv', true],
    ['regex:[^_]+_[\\w-]+\\.csv', 'a_b-c.csv', true],
    ['regex:a{2,}', 'aaaa', true],
    ['regex:a{2,3}', 'aaaa', false],
    ['regex:x{1', 'x{1', true], // not a repetition: "{" is itself, as in Python
    ['regex:line\\d/.*\\.csv', 'line3/a.csv', true], // with "/": the relative path
  ])('%s against %s → %s', (pattern, path, expected) => expect(matches(pattern, path)).toBe(expected));

  it.each([
    ['regex:(a)\\1', /backreferences/],
    ['regex:(?=a)a', /lookahead and lookbehind/],
    ['regex:(?<!a)b', /lookahead and lookbehind/],
    ['regex:\\bword', /not supported/],
    ['regex:[z-a]', /runs backwards/],
    ['regex:(abc', /not closed/],
    ['regex:abc)', /unbalanced/],
    ['regex:*a', /nothing to repeat/],
    ['regex:a**', /cannot follow another quantifier/],
    ['regex:a++', /possessive/],
    ['regex:a{5000}', /above 1000/],
    ['regex:((a{1000}){1000})', /too complex/],
    ['regex:', /no expression/],
    ['regex:\\q', /not a known escape/],
  ])('refuses %s with a reason', (pattern, reason) => {
    expect(compileFileFilter(pattern, { path: false, ignoreCase: false }).problem).toMatch(reason);
  });

  it('matches catastrophic-backtracking expressions in linear time', () => {
    expect(matches('regex:(a+)+b', 'a'.repeat(5000))).toBe(false);
    expect(matches('regex:(a|aa)*c', 'a'.repeat(5000))).toBe(false);
    expect(matches('regex:(.*a){12}', 'a'.repeat(3000))).toBe(true);
  });

  it('gives the same answers as JavaScript RegExp on generated expressions', () => {
    const atom = fc.constantFrom('a', 'b', '.', '\\d', '[ab]', '[^a]', '1');
    const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        atom,
        fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{1,2}', '')).map(([e, q]) => `(?:${e})${q}`),
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}${y}`),
        fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
      ),
    })).node as fc.Arbitrary<string>;
    fc.assert(
      fc.property(expr, fc.array(fc.constantFrom('a', 'b', '1', 'c'), { maxLength: 8 }), (source, name) => {
        const text = name.join('');
        expect(matches(`regex:${source}`, text)).toBe(new RegExp(`^(?:${source})$`).test(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('regexLookingGlob', () => {
  it('hints at regex: for globs written as regular expressions', () => {
    expect(regexLookingGlob('.*\\.csv')).toMatch(/regex:\.\*\\\.csv/);
    expect(regexLookingGlob('^press.*$')).toBeDefined();
    expect(regexLookingGlob('*.csv')).toBeUndefined();
    expect(regexLookingGlob('station3.csv')).toBeUndefined();
    expect(regexLookingGlob('regex:.*')).toBeUndefined();
  });
});

describe('the fast path for globs of text and "*"', () => {
  it('gives the answers of the automaton, also ignoring case', () => {
    // A leading class sends the pattern to the automaton: with one more character in front of the name, both must agree.
    const piece = fc.constantFrom('a', 'B', '.', '*', 'é', 'x');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 7 }), fc.array(fc.constantFrom('a', 'A', 'b', 'B', '.', 'é', 'É', 'x'), { maxLength: 9 }), fc.boolean(), (pattern, name, ignoreCase) => {
        const fast = compile(pattern.join(''), { ignoreCase });
        const automaton = compile(`[${'\u0000'}-${'\u{10ffff}'}]${pattern.join('')}`, { ignoreCase }); // one more leading character, any
        const text = name.join('');
        expect(fast.matches(text)).toBe(automaton.matches(`#${text}`));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the cache of deterministic states', () => {
  it('stays right when a pattern has more state sets than it keeps (falls back to simulation)', () => {
    // "a" 12 characters from the end: 2^13 state sets, more than the cache holds.
    const filter = compile('regex:[ab]*a[ab]{12}');
    const reference = /^(?:[ab]*a[ab]{12})$/;
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b'), { minLength: 10, maxLength: 40 }), (letters) => {
        expect(filter.matches(letters.join(''))).toBe(reference.test(letters.join('')));
      }),
      { numRuns: 3000 },
    );
  });
});
