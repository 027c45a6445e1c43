/**
 * RFC 4180 records at the byte level, so that every record has exact byte offsets in the file.
 *
 * Why not csv-parse: it does report exact per-record byte counts (`info.bytes`, BOM and UTF-16
 * included — checked), but only its asynchronous stream API leaves an incomplete last record
 * unparsed, and it keeps the quote state inside a parser object that cannot be persisted with the
 * file progress; its sync API throws on a chunk that ends inside a quoted field and turns one
 * malformed quote into an error for the whole input instead of one bad line. The rule needed here
 * is small enough to own: one state machine, used twice — on code units to find where records end
 * (quote, separator and newline are single ASCII units in every supported encoding, and never part
 * of a multi-byte UTF-8 sequence), and on the decoded text of one record to split its cells.
 *
 * Quoting follows pandas' C tokenizer: a quote opens a quoted cell only at the start of a cell,
 * `""` inside it is one quote, text after the closing quote is kept as it is, and a quote inside
 * an unquoted cell is an ordinary character.
 */

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

const enum State {
  CellStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/** One record in the scanned bytes: [start, end) including its newline; cells end at contentEnd. */
export interface ScannedRecord {
  start: number;
  contentEnd: number;
  end: number;
  /** Newlines in the record, embedded ones included (for physical line numbers). */
  newlines: number;
  /** The record ends inside a quoted cell (only possible for the last record of a final chunk). */
  unterminatedQuote: boolean;
}

export interface ScanResult {
  records: ScannedRecord[];
  /** Offset just after the last complete record. */
  consumed: number;
}

function readUnit(bytes: Buffer, i: number, width: 1 | 2, littleEndian: boolean): number {
  if (width === 1) return bytes[i]!;
  return littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!;
}

function separatorAt(
  bytes: Buffer,
  i: number,
  separator: number[],
  width: 1 | 2,
  littleEndian: boolean,
): boolean {
  for (let k = 0; k < separator.length; k += 1) {
    const at = i + k * width;
    if (at + width > bytes.length || readUnit(bytes, at, width, littleEndian) !== separator[k])
      return false;
  }
  return true;
}

/** How a RecordCursor reads: the separator's code units, the encoding's unit, the file's end. */
export interface CursorOptions {
  separator: number[];
  width: 1 | 2;
  littleEndian: boolean;
  /** The rest of the buffer is a record too (the file is complete). */
  final: boolean;
  /** Double-byte code pages: a lead byte takes the next byte with it (whatever that byte is). */
  leadByte?: ((byte: number) => boolean) | null;
  /** The quote character's code unit (pandas quotechar; ASCII). */
  quote?: number;
  /** pandas `comment`: the rest of the record after this unit is not parsed (-1: none). */
  comment?: number;
}

/**
 * Walks the complete records of `bytes[from..]` one at a time, without allocating: after next()
 * returns true, the fields describe the record (as in ScannedRecord). A record is complete when its
 * newline (LF, CRLF) outside quotes is in the buffer; when `final` is set the rest of the buffer is
 * a record too.
 */
export class RecordCursor {
  start = 0;
  contentEnd = 0;
  end = 0;
  newlines = 0;
  unterminatedQuote = false;
  /** False when the record certainly holds no quote character (its cells split plainly). */
  mayHaveQuote = true;
  /** Offset just after the last complete record. */
  consumed: number;

  private readonly limit: number;
  private readonly separatorLength: number;
  private readonly firstSeparatorUnit: number;
  /** Single-byte units and a separator without LF: a record without quotes ends at its first LF. */
  private readonly plain: boolean;
  /**
   * Offset of the next quote byte at or after `consumed` (width 1), -1 for none, -2 before the
   * first search.
   */
  private nextQuote = -2;
  /**
   * Lead bytes, another quote character or a comment character: walkGeneral() instead of walk().
   */
  private readonly general: boolean;

  private readonly separator: number[];
  private readonly width: 1 | 2;
  private readonly littleEndian: boolean;
  private readonly final: boolean;
  private readonly leadByte: ((byte: number) => boolean) | null;
  private readonly quote: number;
  private readonly comment: number;

  constructor(
    private readonly bytes: Buffer,
    from: number,
    options: CursorOptions,
  ) {
    this.separator = options.separator;
    this.width = options.width;
    this.littleEndian = options.littleEndian;
    this.final = options.final;
    this.leadByte = options.leadByte ?? null;
    this.quote = options.quote ?? QUOTE;
    this.comment = options.comment ?? -1;
    const { separator, width, leadByte, quote, comment } = this;
    this.consumed = from;
    this.general = leadByte !== null || quote !== QUOTE || comment >= 0;
    this.limit = bytes.length - ((bytes.length - from) % width);
    this.separatorLength = separator.length * width;
    this.firstSeparatorUnit = separator[0]!;
    this.plain = width === 1 && !separator.includes(LF);
  }

  next(): boolean {
    const bytes = this.bytes;
    const start = this.consumed;
    if (this.plain) {
      // Most records hold no quote: then the first LF ends the record, and memchr finds it.
      if (this.nextQuote !== -1 && this.nextQuote < start)
        this.nextQuote = bytes.indexOf(this.quote, start);
      const lf = start < this.limit ? bytes.indexOf(LF, start) : -1;
      if (this.nextQuote === -1 || (lf !== -1 && this.nextQuote > lf)) {
        this.mayHaveQuote = false;
        if (lf !== -1) return this.found(start, lf, lf + 1, 1, false);
        return this.final && start < bytes.length
          ? this.found(start, this.limit, bytes.length, 0, false)
          : false;
      }
    }
    this.mayHaveQuote = true;
    return this.general ? this.walkGeneral(start) : this.walk(start);
  }

  /**
   * Sets the fields for the record [start, end) whose content ends at `at` (its LF, or the end of
   * the units), before a CR there.
   */
  private found(
    start: number,
    at: number,
    end: number,
    newlines: number,
    unterminatedQuote: boolean,
  ): boolean {
    const { bytes, width, littleEndian } = this;
    const hasCr = at - width >= start && readUnit(bytes, at - width, width, littleEndian) === CR;
    this.start = start;
    this.contentEnd = hasCr ? at - width : at;
    this.end = end;
    this.newlines = newlines;
    this.unterminatedQuote = unterminatedQuote;
    this.consumed = end;
    return true;
  }

  /** The quote-aware state machine, from the start of a record. */
  private walk(start: number): boolean {
    const { bytes, width, littleEndian, separator, separatorLength, firstSeparatorUnit, limit } =
      this;
    let state = State.CellStart;
    let newlines = 0;
    let i = start;
    while (i < limit) {
      const unit = width === 1 ? bytes[i]! : readUnit(bytes, i, width, littleEndian);
      if (unit === LF) {
        newlines += 1;
        if (state !== State.Quoted) return this.found(start, i, i + width, newlines, false);
        i += width;
        continue;
      }
      if (state === State.Quoted) {
        if (unit === QUOTE) state = State.QuoteInQuoted;
        i += width;
        continue;
      }
      if (unit === firstSeparatorUnit && separatorAt(bytes, i, separator, width, littleEndian)) {
        state = State.CellStart;
        i += separatorLength;
        continue;
      }
      if (state === State.CellStart) state = unit === QUOTE ? State.Quoted : State.Unquoted;
      else if (state === State.QuoteInQuoted)
        state = unit === QUOTE ? State.Quoted : State.Unquoted;
      i += width;
    }
    return this.final && start < bytes.length
      ? this.found(start, limit, bytes.length, newlines, state === State.Quoted)
      : false;
  }

  /**
   * walk() with what only some files need: double-byte code pages, whose second byte may equal a
   * separator such as "|" (Shift_JIS "ポ" is 0x83 0x7C) — a lead byte and its second byte are one
   * character of a cell (newline and quote are never second bytes); another quote character; and a
   * comment character, after which quotes do not open a cell (pandas ignores the rest of the line).
   */
  private walkGeneral(start: number): boolean {
    const {
      bytes,
      width,
      littleEndian,
      separator,
      separatorLength,
      firstSeparatorUnit,
      limit,
      quote,
      comment,
      leadByte,
    } = this;
    let state = State.CellStart;
    let newlines = 0;
    let inComment = false;
    let i = start;
    while (i < limit) {
      const unit = width === 1 ? bytes[i]! : readUnit(bytes, i, width, littleEndian);
      if (unit === LF) {
        newlines += 1;
        if (state !== State.Quoted) return this.found(start, i, i + width, newlines, false);
        i += width;
        continue;
      }
      if (!inComment) {
        if (state === State.Quoted) {
          if (unit === quote) state = State.QuoteInQuoted;
        } else if (unit === comment) {
          inComment = true;
        } else if (
          unit === firstSeparatorUnit &&
          separatorAt(bytes, i, separator, width, littleEndian)
        ) {
          state = State.CellStart;
          i += separatorLength;
          continue;
        } else if (state === State.CellStart)
          state = unit === quote ? State.Quoted : State.Unquoted;
        else if (state === State.QuoteInQuoted)
          state = unit === quote ? State.Quoted : State.Unquoted;
      }
      // A second byte in the valid range (0x40 and up) belongs to its lead byte.
      i +=
        leadByte !== null && leadByte(unit) && i + 1 < limit && bytes[i + 1]! >= 0x40 ? 2 : width;
    }
    return this.final && start < bytes.length
      ? this.found(start, limit, bytes.length, newlines, state === State.Quoted)
      : false;
  }
}

/**
 * Finds the complete records in `bytes[from..]`. A record is complete when its newline (LF, CRLF)
 * outside quotes is in the buffer; when `final` is set the rest of the buffer is a record too.
 */
export function scanRecords(
  bytes: Buffer,
  from: number,
  separator: number[],
  width: 1 | 2,
  littleEndian: boolean,
  final: boolean,
): ScanResult {
  const records: ScannedRecord[] = [];
  const cursor = new RecordCursor(bytes, from, { separator, width, littleEndian, final });
  while (cursor.next()) {
    records.push({
      start: cursor.start,
      contentEnd: cursor.contentEnd,
      end: cursor.end,
      newlines: cursor.newlines,
      unterminatedQuote: cursor.unterminatedQuote,
    });
  }
  return { records, consumed: cursor.consumed };
}

/**
 * Splits the decoded text of one record (without its newline) into cells; `quote` is pandas'
 * quotechar.
 */
export function splitCells(text: string, separator: string, quote = '"'): string[] {
  // Most records quote nothing: the plain split is the same answer, much faster.
  if (!text.includes(quote)) return text.split(separator);
  const cells: string[] = [];
  let cell = '';
  let state = State.CellStart;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (state === State.Quoted) {
      if (char === quote) state = State.QuoteInQuoted;
      else cell += char;
      continue;
    }
    if (char === separator[0] && text.startsWith(separator, i)) {
      cells.push(cell);
      cell = '';
      state = State.CellStart;
      i += separator.length - 1;
      continue;
    }
    if (state === State.CellStart && char === quote) {
      state = State.Quoted;
    } else if (state === State.QuoteInQuoted && char === quote) {
      cell += quote;
      state = State.Quoted;
    } else {
      cell += char;
      state = State.Unquoted;
    }
  }
  cells.push(cell);
  return cells;
}

/** The text of a record before its comment character (pandas `comment`), quotes respected. */
export function stripComment(
  text: string,
  separator: string,
  quote: string,
  comment: string,
): string {
  if (!text.includes(comment)) return text;
  let state = State.CellStart;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (state === State.Quoted) {
      if (char === quote) state = State.QuoteInQuoted;
      continue;
    }
    if (char === comment) return text.slice(0, i);
    if (char === separator[0] && text.startsWith(separator, i)) {
      state = State.CellStart;
      i += separator.length - 1;
    } else if (state === State.CellStart || state === State.QuoteInQuoted)
      state = char === quote ? State.Quoted : State.Unquoted;
  }
  return text;
}
