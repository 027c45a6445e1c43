/**
 * Python-compatible strptime. Like CPython's `_strptime`, a format is turned into one anchored,
 * case-insensitive regular expression (so alternation order and backtracking behave the same way:
 * `%b %d %Y` reads `Jan 1 2000`), and the captured parts are then combined into a wall time.
 *
 * Formats made only of numeric fields (%Y %y %m %d %H %M %S %f), non-digit literals and
 * whitespace also get a fast reader that walks the text once without the regex. A field followed
 * by something that cannot start with a digit can only get its whole run of digits from the regex:
 * the fast reader takes the run and accepts exactly the lengths and values the field's pattern
 * accepts. A field directly followed by another one (%Y%m%d) gets its full width (four digits for
 * %Y, up to six for %f, two for the others) or nothing: that is the regex's first choice (every
 * pattern tries its two-digit alternatives before its one-digit ones), so when the rest of the
 * text then matches, it is the regex's reading. Anything else (a space-padded day, a letter in
 * another case, Unicode whitespace, a mismatch, a short field) goes to the regex, which decides.
 */
import { type WallTime, civilFromDays, daysFromCivil, isValidWallTime, parseOffset, weekdayOf } from './wall-time.js';

export type { WallTime } from './wall-time.js';
export { guessDateTime } from './guess-date-time.js';
import { COMPOSITE, DIRECTIVE_PATTERNS, MONTHS, WEEKDAYS } from './strptime-directives.js';

interface CompiledFormat {
  regex: RegExp;
  /** Capture-group number of each directive letter present in the format. */
  group: Partial<Record<string, number>>;
  /** Steps of the fast reader, or null when the format needs the regex for every text. */
  fast: FastStep[] | null;
}

const enum StepKind {
  Literal,
  Space,
  Field,
}

const enum Field {
  Year,
  ShortYear,
  Month,
  Day,
  Hour,
  Minute,
  Second,
  Fraction,
}

/** One element of a fast format: a literal code unit, a run of whitespace, or a numeric field. */
interface FastStep {
  kind: StepKind;
  /** The code unit of a literal, the Field of a field. */
  value: number;
  /** A field's digits: 0 for its whole run, else its full width (FULL_WIDTH), exactly (%f: 1 up to 6). */
  width: number;
}

/** Digits of each Field at its full width, the first choice of its pattern. */
const FULL_WIDTH = [4, 2, 2, 2, 2, 2, 2, 6];

const FAST_FIELDS: Partial<Record<string, Field>> = { Y: Field.Year, y: Field.ShortYear, m: Field.Month, d: Field.Day, H: Field.Hour, M: Field.Minute, S: Field.Second, f: Field.Fraction };

const compiled = new Map<string, CompiledFormat | null>();

function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces %c, %x and %X by their C-locale formats, leaving %% and every other directive alone. */
function expandComposites(format: string): string {
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    if (format[i] !== '%') {
      out += format[i];
      continue;
    }
    const flag = format[i + 1] === '-' || format[i + 1] === '#' ? format[i + 1]! : '';
    const letter = format[i + 1 + flag.length] ?? '';
    out += COMPOSITE[letter] ?? `%${flag}${letter}`;
    i += flag.length + 1;
  }
  return out;
}

export const isDigitCode = (code: number) => code >= 0x30 && code <= 0x39;

function compile(format: string): CompiledFormat | null {
  const group: Partial<Record<string, number>> = {};
  let groups = 0;
  let source = '';
  let fast: FastStep[] | null = [];
  const expanded = expandComposites(format);
  for (let i = 0; i < expanded.length; i += 1) {
    const char = expanded[i]!;
    if (char === '%') {
      let letter = expanded[i + 1];
      // glibc-style flags (%-d, %#d) ask for no padding; parsing accepts both forms anyway.
      if (letter === '-' || letter === '#') {
        i += 1;
        letter = expanded[i + 1];
      }
      i += 1;
      if (letter === '%') {
        source += '%';
        fast?.push({ kind: StepKind.Literal, value: 0x25, width: 0 });
      } else if (letter !== undefined && DIRECTIVE_PATTERNS[letter] !== undefined) {
        groups += 1;
        // A repeated directive (CPython refuses those) would need the values to agree; refuse it too.
        if (group[letter] !== undefined) return null;
        group[letter] = groups;
        source += `(${DIRECTIVE_PATTERNS[letter]})`;
        const field = FAST_FIELDS[letter];
        if (field === undefined) fast = null;
        else if (fast) {
          // A field right after another ends where its full width does (see the module comment).
          const previous = fast[fast.length - 1];
          if (previous?.kind === StepKind.Field) previous.width = FULL_WIDTH[previous.value]!;
          fast.push({ kind: StepKind.Field, value: field, width: 0 });
        }
      } else {
        return null;
      }
    } else if (/\s/.test(char)) {
      // CPython replaces each run of format whitespace with \s+.
      while (i + 1 < expanded.length && /\s/.test(expanded[i + 1]!)) i += 1;
      source += '\\s+';
      fast?.push({ kind: StepKind.Space, value: 0, width: 0 });
    } else {
      source += escapeLiteral(char);
      const code = char.charCodeAt(0);
      // A digit literal could be taken into the field before it.
      if (isDigitCode(code)) fast = null;
      else fast?.push({ kind: StepKind.Literal, value: code, width: 0 });
    }
  }
  return { regex: new RegExp(`^${source}$`, 'i'), group, fast };
}

function compiledFormat(format: string): CompiledFormat | null {
  let entry = compiled.get(format);
  if (entry === undefined) {
    entry = compile(format);
    if (compiled.size > 256) compiled.clear();
    compiled.set(format, entry);
  }
  return entry;
}

const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
/** Microseconds of one unit of a %f of 1 to 6 digits (index: its digits). */
export const FRACTION_SCALE = [0, 100_000, 10_000, 1000, 100, 10, 1];

/**
 * The fast reading of `text`: a wall time, null for an impossible date, or undefined when the
 * text is not in the plain shape the fast reader knows (the regex then decides).
 */
function readFast(text: string, steps: FastStep[]): WallTime | null | undefined {
  const length = text.length;
  let pos = 0;
  let year = -1;
  let shortYear = -1;
  let month = -1;
  let day = -1;
  let hour = -1;
  let minute = -1;
  let second = -1;
  let microsecond = -1;
  for (let s = 0; s < steps.length; s += 1) {
    const step = steps[s]!;
    if (step.kind === StepKind.Literal) {
      if (pos >= length || text.charCodeAt(pos) !== step.value) return undefined;
      pos += 1;
    } else if (step.kind === StepKind.Space) {
      const start = pos;
      while (pos < length && isAsciiSpace(text.charCodeAt(pos))) pos += 1;
      if (pos === start) return undefined;
    } else {
      const start = pos;
      const end = step.width === 0 ? length : Math.min(length, pos + step.width);
      let value = 0;
      while (pos < end) {
        const code = text.charCodeAt(pos);
        if (!isDigitCode(code)) break;
        value = value * 10 + (code - 0x30);
        pos += 1;
      }
      const digits = pos - start;
      if (step.width !== 0 && digits !== step.width && step.value !== Field.Fraction) return undefined;
      // Exactly the digit strings each field's pattern in DIRECTIVE_PATTERNS matches whole.
      switch (step.value) {
        case Field.Year:
          if (digits !== 4) return undefined;
          year = value;
          break;
        case Field.ShortYear:
          if (digits !== 2) return undefined;
          shortYear = value;
          break;
        case Field.Month:
          if (digits === 0 || digits > 2 || value < 1 || value > 12) return undefined;
          month = value;
          break;
        case Field.Day:
          if (digits === 0 || digits > 2 || value < 1 || value > 31) return undefined;
          day = value;
          break;
        case Field.Hour:
          if (digits === 0 || digits > 2 || value > 23) return undefined;
          hour = value;
          break;
        case Field.Minute:
          if (digits === 0 || digits > 2 || value > 59) return undefined;
          minute = value;
          break;
        case Field.Second:
          if (digits === 0 || digits > 2 || value > 61) return undefined;
          second = value;
          break;
        default:
          if (digits === 0 || digits > 6) return undefined;
          microsecond = value * FRACTION_SCALE[digits]!;
      }
    }
  }
  if (pos !== length) return undefined;
  // The same defaults and rules as the regex reading below.
  let fullYear = 1900;
  if (shortYear >= 0) fullYear = shortYear <= 68 ? 2000 + shortYear : 1900 + shortYear;
  if (year >= 0) fullYear = year;
  const wall: WallTime = {
    year: fullYear,
    month: month >= 0 ? month : 1,
    day: day >= 0 ? day : 1,
    hour: hour >= 0 ? hour : 0,
    minute: minute >= 0 ? minute : 0,
    second: second >= 0 ? second : 0,
    microsecond: microsecond >= 0 ? microsecond : 0,
  };
  return isValidWallTime(wall) ? wall : null;
}

function parseCompiled(text: string, entry: CompiledFormat): WallTime | null {
  if (entry.fast !== null) {
    const wall = readFast(text, entry.fast);
    if (wall !== undefined) return wall;
  }
  return parseByRegex(text, entry);
}

/**
 * Parses `text` with a Python strptime `format`. Returns null when the text does not match the whole
 * format or names an impossible date. Missing parts default like Python's (1900-01-01 00:00:00).
 * `offsetMinutes` is set only when the text carries an offset (%z, or %Z naming UTC/GMT).
 */
export function parseStrptime(text: string, format: string): WallTime | null {
  const entry = compiledFormat(format);
  return entry ? parseCompiled(text, entry) : null;
}

/** parseStrptime for one format, compiled once: for reading many texts in the same format. */
export function strptimeReader(format: string): (text: string) => WallTime | null {
  const entry = compile(format);
  return entry ? (text) => parseCompiled(text, entry) : () => null;
}

/**
 * Whether `format` ends with its seconds (`%S`, or `%S` + one literal + `%f`) after a literal or
 * whitespace, in the shape the fast reader reads: then a text's characters before its seconds
 * name its minute (time-columns.ts reads the texts of one minute by their seconds alone). The
 * literal between %S and %f (its code unit), -1 when %S ends the format; undefined otherwise.
 */
export function secondsEnding(format: string): number | undefined {
  const steps = compiledFormat(format)?.fast;
  const n = steps?.length ?? 0;
  const isField = (i: number, field: Field) => steps![i]?.kind === StepKind.Field && steps![i]!.value === field;
  const fraction = n >= 4 && isField(n - 1, Field.Fraction) && steps![n - 2]!.kind === StepKind.Literal;
  const second = fraction ? n - 3 : n - 1;
  if (!steps || second < 1 || !isField(second, Field.Second) || steps[second - 1]!.kind === StepKind.Field) return undefined;
  return fraction ? steps[n - 2]!.value : -1;
}

/**
 * A reader of `format` that reads only its fixed-width spelling: every numeric field at its full
 * width (%Y four digits, %f one to six, the others two), ASCII whitespace, literals in their own
 * case. What it reads, it reads as parseStrptime does; any other text gives null, though
 * parseStrptime may read it. Undefined for a format that is not only numeric fields (%Y %y %m %d
 * %H %M %S %f), non-digit literals and whitespace.
 */
export function fixedWidthReader(format: string): ((text: string) => WallTime | null) | undefined {
  const steps = compile(format)?.fast;
  if (!steps) return undefined;
  const fixed = steps.map((step) => (step.kind === StepKind.Field ? { ...step, width: FULL_WIDTH[step.value]! } : step));
  return (text) => readFast(text, fixed) ?? null;
}

/** parseStrptime through the regex alone (no fast reader): the reference the fast reader must equal. */
export function parseStrptimeByRegex(text: string, format: string): WallTime | null {
  const entry = compiledFormat(format);
  return entry ? parseByRegex(text, entry) : null;
}

function parseByRegex(text: string, entry: CompiledFormat): WallTime | null {
  const match = entry.regex.exec(text);
  if (!match) return null;
  const g = entry.group;
  const part = (letter: string): string | undefined => {
    const index = g[letter];
    return index === undefined ? undefined : match[index];
  };
  const number = (letter: string, fallback: number): number => {
    const value = part(letter);
    return value === undefined ? fallback : Number(value.trim());
  };

  let year = 1900;
  const short = part('y');
  if (short !== undefined) year = Number(short) <= 68 ? 2000 + Number(short) : 1900 + Number(short);
  year = number('Y', year);
  let month = number('m', 1);
  const monthName = part('B') ?? part('b');
  if (monthName !== undefined) month = MONTHS.findIndex((n) => n.startsWith(monthName.toLowerCase())) + 1;
  let day = number('d', 1);
  let hour = number('H', 0);
  const twelve = part('I');
  if (twelve !== undefined) {
    hour = Number(twelve.trim());
    const half = part('p')?.toLowerCase() ?? 'am';
    if (half === 'am' && hour === 12) hour = 0;
    else if (half === 'pm' && hour !== 12) hour += 12;
  }
  const minute = number('M', 0);
  const second = number('S', 0);
  const fraction = part('f');
  const microsecond = fraction === undefined ? 0 : Number(fraction.padEnd(6, '0'));

  if (g.j !== undefined || g.V !== undefined || g.U !== undefined || g.W !== undefined) {
    const date = calendarDate(part, year);
    if (date === null) return null;
    if (date !== undefined) ({ year, month, day } = date);
  }
  const wall: WallTime = { year, month, day, hour, minute, second, microsecond };
  const offset = part('z');
  if (offset !== undefined) wall.offsetMinutes = parseOffset(offset) ?? undefined;
  if (g.Z !== undefined) wall.offsetMinutes = 0;
  if (wall.offsetMinutes === undefined) delete wall.offsetMinutes;
  return isValidWallTime(wall) ? wall : null;
}

/**
 * The date named by day of year (%j), ISO week (%G %V + weekday) or week of year (%U/%W + weekday
 * + %Y), as CPython computes them; undefined when the format names the date otherwise.
 */
function calendarDate(part: (letter: string) => string | undefined, year: number): { year: number; month: number; day: number } | null | undefined {
  const num = (letter: string) => Number(part(letter)!.trim());
  let dayOfWeek: number | undefined;
  const weekdayName = part('A') ?? part('a');
  if (weekdayName !== undefined) dayOfWeek = WEEKDAYS.findIndex((n) => n.startsWith(weekdayName.toLowerCase()));
  if (part('w') !== undefined) dayOfWeek = (num('w') + 6) % 7;
  if (part('u') !== undefined) dayOfWeek = num('u') - 1;

  if (part('j') !== undefined) {
    const date = civilFromDays(daysFromCivil(year, 1, 1) + num('j') - 1);
    return date.year === year ? date : null;
  }
  if (part('G') !== undefined && part('V') !== undefined && dayOfWeek !== undefined) {
    const isoYear = num('G');
    const week1Monday = daysFromCivil(isoYear, 1, 4) - weekdayOf(isoYear, 1, 4);
    return civilFromDays(week1Monday + (num('V') - 1) * 7 + dayOfWeek);
  }
  if ((part('U') !== undefined || part('W') !== undefined) && dayOfWeek !== undefined && part('Y') !== undefined && part('d') === undefined) {
    const sundayStarts = part('U') !== undefined;
    const week = sundayStarts ? num('U') : num('W');
    const firstWeekday = weekdayOf(year, 1, 1);
    const weekStart = sundayStarts ? (firstWeekday + 1) % 7 : firstWeekday;
    const dayInWeek = sundayStarts ? (dayOfWeek + 1) % 7 : dayOfWeek;
    const daysToWeek1 = (7 - weekStart) % 7;
    const ordinal = week === 0 ? dayInWeek - weekStart : daysToWeek1 + (week - 1) * 7 + dayInWeek;
    return civilFromDays(daysFromCivil(year, 1, 1) + ordinal);
  }
  return undefined;
}
