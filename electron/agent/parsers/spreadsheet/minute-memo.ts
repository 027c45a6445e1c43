/**
 * Time columns' minute memo (time-columns.ts instantAt): a logger writes many rows a minute, and a
 * text whose bytes before its seconds are those of the column's last text is read by its seconds
 * (and fraction) alone, from its UTF-8 bytes, without making the text. Kept only for formats that
 * end with their seconds (strptime.ts secondsEnding) with an ASCII literal before the fraction,
 * for an ASCII text without surrounding whitespace, and for a minute in which the zone's offset
 * does not change; any other text is decoded and read in full, and what the memo reads must be
 * what the full reading reads (time-columns.property.test.ts).
 */
import { FRACTION_SCALE, isDigitCode as isDigit, secondsEnding } from '../../time/strptime.js';
import type { WallTime } from '../../time/wall-time.js';
import { type LocalOffset, wallNaiveMs } from '../../time/zoned.js';

/**
 * A column's last minute: its text's bytes before the seconds (ASCII), where they start, second
 * 0's instant.
 */
interface MinuteMemo {
  prefix: Uint8Array;
  secondsAt: number;
  minuteMicros: number;
}

/**
 * The instant of the text in `bytes[start, end)` read by the memo's minute, or -1 when the text is
 * not of that minute or not in its plain shape (two digits of seconds 00–59, then the format's
 * fraction: its literal and 1 to 6 digits): the full reading decides those. Every byte it accepts
 * is ASCII, so the text is those bytes' characters.
 */
function memoInstant(
  memo: MinuteMemo,
  mark: number,
  bytes: Uint8Array,
  start: number,
  end: number,
) {
  const at = memo.secondsAt;
  const prefix = memo.prefix;
  if (end - start < at + 2) return -1;
  for (let i = 0; i < at; i += 1) if (bytes[start + i] !== prefix[i]) return -1;
  const tens = bytes[start + at]! - 0x30;
  const ones = bytes[start + at + 1]! - 0x30;
  if (tens < 0 || tens > 5 || ones < 0 || ones > 9) return -1;
  let pos = start + at + 2;
  let microsecond = 0;
  if (mark >= 0) {
    if (pos >= end || bytes[pos] !== mark) return -1;
    pos += 1;
    const digits = end - pos;
    if (digits < 1 || digits > 6) return -1;
    let value = 0;
    for (; pos < end; pos += 1) {
      const code = bytes[pos]!;
      if (!isDigit(code)) return -1;
      value = value * 10 + (code - 0x30);
    }
    microsecond = value * FRACTION_SCALE[digits]!;
  } else if (pos !== end) {
    return -1;
  }
  return memo.minuteMicros + (tens * 10 + ones) * 1_000_000 + microsecond;
}

export class MinuteMemos {
  /** Per column: the ASCII literal between %S and %f (-1: none), or undefined (no memo). */
  private readonly marks: (number | undefined)[];
  private readonly memos: (MinuteMemo | null)[];

  /**
   * `formats`: the columns' strptime formats, in column order (the guessed columns after them
   * have none); `instant`: the full reading.
   */
  constructor(
    private readonly columns: readonly { read: (text: string) => WallTime | null }[],
    formats: readonly string[],
    private readonly resolveOffset: (wall: WallTime, naive: number) => LocalOffset,
    private readonly instant: (t: number, text: string) => number,
  ) {
    this.marks = columns.map((_, t) => {
      const mark = t < formats.length ? secondsEnding(formats[t]!) : undefined;
      return mark !== undefined && mark < 0x80 ? mark : undefined;
    });
    this.memos = columns.map(() => null);
  }

  /** instant(t, the UTF-8 text of bytes[start, end)). */
  instantAt(t: number, bytes: Buffer, start: number, end: number): number {
    const mark = this.marks[t];
    const memo = this.memos[t];
    if (memo && mark !== undefined) {
      const micros = memoInstant(memo, mark, bytes, start, end);
      if (micros >= 0) return micros;
    }
    const text = bytes.toString('utf8', start, end);
    const micros = this.instant(t, text);
    if (mark !== undefined && Number.isFinite(micros))
      this.memos[t] = this.minuteOf(t, text, micros, mark);
    return micros;
  }

  /** The memo of `text`'s minute (read as `micros`), or null. */
  private minuteOf(t: number, text: string, micros: number, mark: number): MinuteMemo | null {
    const end = mark >= 0 ? text.lastIndexOf(String.fromCharCode(mark)) : text.length;
    const secondsAt = end - 2;
    // eslint-disable-next-line no-control-regex -- ASCII: its characters are its UTF-8 bytes
    if (secondsAt < 1 || text !== text.trim() || !/^[\x00-\x7f]*$/.test(text)) return null;
    // Two digits of seconds after the literal or space before them.
    const code = (i: number) => text.charCodeAt(secondsAt + i);
    if (isDigit(code(-1)) || !isDigit(code(0)) || !isDigit(code(1))) return null;
    const wall = this.columns[t]!.read(text);
    if (!wall) return null;
    const first = { ...wall, second: 0, microsecond: 0 };
    const naive = wallNaiveMs(first);
    const offset = this.resolveOffset(first, naive).offsetMs;
    // The same offset at the minute's last second: no change of the zone's offset within it.
    const last = this.resolveOffset({ ...first, second: 59 }, naive + 59_000);
    if (last.offsetMs !== offset) return null;
    const minuteMicros = (naive - offset) * 1000;
    // Sums of exact integers only (instant's own arithmetic is exact there too).
    if (minuteMicros < 0 || minuteMicros + 60_000_000 > Number.MAX_SAFE_INTEGER) return null;
    // What the memo would read this text as must be what it was read as.
    if (minuteMicros + wall.second * 1_000_000 + wall.microsecond !== micros) return null;
    return { prefix: Buffer.from(text.slice(0, secondsAt), 'latin1'), secondsAt, minuteMicros };
  }
}
