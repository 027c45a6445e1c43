/**
 * What both spreadsheet paths (spreadsheet-parser.ts, options-parser.ts) do at the start of every
 * chunk, written once: the state copied, an empty result, the file's encoding detected on its first
 * bytes (and looked up once per name), and bad lines handled by bad_lines_action.
 */
import type { ChunkResult, SpreadsheetState } from './parser-types.js';
import type { ReadOptions } from './read-options.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import { type FileEncoding, detectEncoding, resolveEncoding } from './text-encoding.js';

export function initialState(): SpreadsheetState {
  return { header: null, rowsSeen: 0, linesSeen: 0, counter: 0, encoding: null };
}

/** A chunk under way: its result (holding the new state), where its records start, its encoding. */
export interface ChunkStart {
  result: ChunkResult;
  state: SpreadsheetState;
  from: number;
  /** Undefined while the first bytes do not tell the encoding yet: return the result as it is. */
  encoding: FileEncoding | undefined;
}

/** Encodings by codec name, resolved once each. */
export type EncodingCache = Map<string, FileEncoding>;

export function startChunk(
  chunk: Buffer,
  previous: SpreadsheetState,
  final: boolean,
  declared: ReadOptions['encoding'],
  encodings: EncodingCache,
): ChunkStart {
  const state: SpreadsheetState = { ...previous, header: previous.header && [...previous.header] };
  const result: ChunkResult = {
    rows: [],
    badLines: [],
    skippedLines: 0,
    dstAdjusted: { gap: 0, overlap: 0 },
    consumedBytes: 0,
    state,
  };
  let from = 0;
  if (state.encoding === null) {
    const detected = chunk.length === 0 ? undefined : detectEncoding(chunk, declared, final);
    if (!detected) return { result, state, from, encoding: undefined };
    state.encoding = detected.encoding.codec;
    from = detected.bomLength;
    result.consumedBytes = from;
  }
  let encoding = encodings.get(state.encoding);
  if (!encoding) encodings.set(state.encoding, (encoding = resolveEncoding(state.encoding)));
  return { result, state, from, encoding };
}

/**
 * Handles a bad line by bad_lines_action ("error" stops the chunk with it, "warn" lists it, "skip"
 * counts it); returns true when parsing must stop there.
 */
/** A line with another number of cells than the header. */
export const cellCount = (line: number, count: number, header: number) => say('csv.cell_count', 'Line {line} has {count} cells, the header has {header}.', { line, count, header });
/** A quoted cell still open at the end of the file. */
export const unclosedQuote = (line: number) => say('csv.unclosed_quote', 'Line {line}: a quoted cell is not closed before the end of the file.', { line });

export function badLineHandler(
  result: ChunkResult,
  action: ReadOptions['badLinesAction'],
): (line: number, problem: string | AgentMessage) => boolean {
  return (line, problem) => {
    const bad = typeof problem === 'string' ? { line, message: problem } : { line, message: problem.text, said: problem };
    if (action === 'error') {
      result.fatal = bad;
      return true;
    }
    if (action === 'warn') result.badLines.push(bad);
    else result.skippedLines += 1;
    return false;
  };
}
