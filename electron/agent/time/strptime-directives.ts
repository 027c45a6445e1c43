/**
 * strptime's directives as CPython's `_strptime` reads them (C locale): the patterns strptime.ts
 * builds a format's regular expression from.
 */
export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const names = (list: string[]) => list.join('|');
const abbreviations = (list: string[]) => list.map((n) => n.slice(0, 3)).join('|');

// The same patterns as CPython's TimeRE (C locale), longest alternatives where Python has them.
export const DIRECTIVE_PATTERNS: Record<string, string> = {
  d: '3[01]|[12]\\d|0[1-9]|[1-9]| [1-9]',
  f: '\\d{1,6}',
  H: '2[0-3]|[0-1]\\d|\\d',
  I: '1[0-2]|0[1-9]|[1-9]| [1-9]',
  G: '\\d\\d\\d\\d',
  j: '36[0-6]|3[0-5]\\d|[12]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9]',
  m: '1[0-2]|0[1-9]|[1-9]',
  M: '[0-5]\\d|\\d',
  S: '6[0-1]|[0-5]\\d|\\d',
  U: '5[0-3]|[0-4]\\d|\\d',
  W: '5[0-3]|[0-4]\\d|\\d',
  V: '5[0-3]|0[1-9]|[1-4]\\d|\\d',
  w: '[0-6]',
  u: '[1-7]',
  y: '\\d\\d',
  Y: '\\d\\d\\d\\d',
  z: '[+-]\\d\\d:?[0-5]\\d(?::?[0-5]\\d)?|Z',
  Z: 'utc|gmt',
  p: 'am|pm',
  B: names(MONTHS),
  b: abbreviations(MONTHS),
  A: names(WEEKDAYS),
  a: abbreviations(WEEKDAYS),
};

// Locale-dependent directives expand to their C-locale formats, as in CPython.
export const COMPOSITE: Record<string, string> = { c: '%a %b %d %H:%M:%S %Y', x: '%m/%d/%y', X: '%H:%M:%S' };
