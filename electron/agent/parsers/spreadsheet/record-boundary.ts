/**
 * Where one file can be cut in two so that two parse threads read it at the same time, each part
 * giving exactly the rows, line numbers and final state a one-thread read gives
 * (docs/decisions/0024-one-file-on-both-parse-threads.md).
 *
 * A line boundary is not enough: a quoted cell may hold newlines, and whether a byte in the middle
 * of a file is inside quotes is only known by scanning from a record boundary. The scan runs the
 * parser's own record cursor over the first part (memchr for LF and quote, the quote state machine
 * only around quotes), without decoding or building rows, and counts what the second part needs to
 * start with: physical lines (line numbers and record ids) and non-blank records (rowsSeen).
 */
import type { Parser as AnyParser } from '../../../../shared/config/schema.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';
import { readOptionsOf } from './read-options.js';
import { RecordCursor } from './record-scanner.js';
import type { SpreadsheetState } from './spreadsheet-parser.js';
import { resolveEncoding, separatorUnits } from './text-encoding.js';

/**
 * Bytes the scan looks for in single-byte-unit text (the only kind a split file has: splitRefusal).
 */
const QUOTE_BYTE = 0x22;
const LF_BYTE = 0x0a;
const CR_BYTE = 0x0d;

/**
 * A record boundary at or after the target, with what a parse from `from` up to it would have
 * counted.
 */
export interface RecordCut {
  /** Byte offset of the boundary (just after a record's newline). */
  offset: number;
  /** Physical lines between `from` and the cut (embedded newlines included). */
  lines: number;
  /** Non-blank records between `from` and the cut (header, data and bad lines alike). */
  records: number;
}

/**
 * Whether a file read with `config`, at a point where its state is `state`, may be cut in two: only
 * on the tuned path (no pandas-only options), with a header already read, a single-byte or UTF-8
 * encoding without lead bytes (record ends found byte-wise), no `error` bad-lines action (a bad
 * line would stop the first part while the second read on) and no `counter` column (its values in
 * the second part depend on how many lines of the first part were bad). Returns the reason when
 * not.
 */
export function splitRefusal(any: AnyParser, state: SpreadsheetState | null): string | undefined {
  if (isDocumentParser(any)) return 'a whole-document parser';
  const config = any;
  const options = readOptionsOf(config);
  if (options.general) return 'pandas-only options (general parser path)';
  if (options.badLinesAction === 'error') return 'bad_lines_action "error"';
  if (config.options?.counter) return 'a counter column';
  if (!state || state.header === null || state.encoding === null) return 'the header is not read yet';
  const encoding = resolveEncoding(state.encoding);
  if (encoding.width !== 1 || encoding.leadByte !== null) return `the ${state.encoding} encoding`;
  return undefined;
}

/**
 * The state the second part starts with: the first part's starting state moved over the cut. The
 * `counter` (data rows produced) starts at 0 in the second part and is added back at the merge
 * (mergedState), since only a parse knows which lines were bad.
 */
export function stateAfterCut(state: SpreadsheetState, cut: RecordCut): SpreadsheetState {
  return {
    ...state,
    header: state.header && [...state.header],
    linesSeen: state.linesSeen + cut.lines,
    rowsSeen: state.rowsSeen + cut.records,
    counter: 0,
  };
}

/**
 * The file's state once both parts are read: the second part's, with the first part's data rows
 * added.
 */
export function mergedState(first: SpreadsheetState, second: SpreadsheetState): SpreadsheetState {
  return { ...second, counter: first.counter + second.counter };
}

/** Bytes scanned per read while looking for the cut. */
const SCAN_PIECE_BYTES = 1024 * 1024;

/**
 * Scans from the record boundary `from` for the first record boundary at or after `target` and
 * before `end`. Undefined when there is none, or when a record longer than `maxRecordBytes` lies on
 * the way (the reader handles such lines specially: not worth splitting around). `pause` runs
 * between pieces (the caller yields to its event loop there).
 */
export async function findRecordCut(options: {
  config: AnyParser;
  state: SpreadsheetState;
  /** Fills `into` with the file's bytes from `at` (fewer at its end) and answers how many. */
  read: (into: Buffer, at: number) => Promise<number>;
  from: number;
  target: number;
  end: number;
  maxRecordBytes: number;
  pause?: () => Promise<void>;
}): Promise<RecordCut | undefined> {
  const { config, state, from, target, end, maxRecordBytes } = options;
  if (splitRefusal(config, state) !== undefined || target <= from || target >= end)
    return undefined;
  const encoding = resolveEncoding(state.encoding!);
  const separator = separatorUnits(readOptionsOf(config).separator, encoding);
  let lines = 0;
  let records = 0;
  /**
   * One buffer for the whole scan: an unfinished record carried to the next piece is moved to its
   * start and the next piece read in after it (no buffer per piece to allocate, join and collect:
   * the scan of a 60 MB file's first half cost ~100 ms of the API thread that way).
   */
  const buffer = Buffer.allocUnsafe(maxRecordBytes + SCAN_PIECE_BYTES);
  /** Bytes of an unfinished record at the buffer's start, and where they start in the file. */
  let carried = 0;
  let carryAt = from;
  /**
   * The cut after the record ending at `offset` (none at the range's end: nothing would be left for
   * the second part).
   */
  const cutAt = (offset: number): RecordCut | undefined =>
    offset < end ? { offset, lines, records } : undefined;
  while (carryAt + carried < end) {
    const at = carryAt + carried;
    const room = buffer.subarray(carried, carried + Math.min(SCAN_PIECE_BYTES, end - at));
    const read = await options.read(room, at);
    if (read <= 0) return undefined; // the file is shorter than it was said to be
    const bytes = buffer.subarray(0, carried + read);
    let consumed = 0;
    if (bytes.indexOf(QUOTE_BYTE) === -1) {
      // No quote (the common case): every record is one line, found by the native byte search
      // instead of the state machine (~10x faster; record-boundary.test.ts holds them equal).
      for (let lf = bytes.indexOf(LF_BYTE); lf !== -1; lf = bytes.indexOf(LF_BYTE, consumed)) {
        if (lf + 1 - consumed > maxRecordBytes) return undefined;
        lines += 1;
        // A record has content besides its line end (\n or \r\n).
        if (lf > consumed && !(lf === consumed + 1 && bytes[consumed] === CR_BYTE)) records += 1;
        consumed = lf + 1;
        if (carryAt + consumed >= target) return cutAt(carryAt + consumed);
      }
    } else {
      const cursor = new RecordCursor(bytes, 0, {
        separator,
        width: 1,
        littleEndian: false,
        final: false,
      });
      while (cursor.next()) {
        if (cursor.end > maxRecordBytes + cursor.start) return undefined;
        lines += cursor.newlines;
        if (cursor.contentEnd > cursor.start) records += 1;
        if (carryAt + cursor.end >= target) return cutAt(carryAt + cursor.end);
      }
      consumed = cursor.consumed;
    }
    carried = bytes.length - consumed;
    carryAt += consumed;
    if (carried > maxRecordBytes) return undefined;
    buffer.copyWithin(0, consumed, consumed + carried);
    await options.pause?.();
  }
  return undefined;
}
