/**
 * What a parse thread does with one chunk request (threads/parse-worker.ts): read the bytes, parse
 * them, and commit the rows as records with the file's new position. A chunk the fast path takes
 * (components/chunk-fast-path.ts; the thread's root wires in
 * transmits/remotedatapost/fused-upload.ts) is committed as that path encoded it; every other chunk
 * takes the general path (rows → records → BatchCommitter.commit), the reference the fast one is
 * tested against.
 */
import fs from 'node:fs';
import type { Parser } from '../../../shared/config/schema.js';
import { type AgentRecord, isoMicros } from '../../../shared/records/record.js';
import { type ChunkResult, type SpreadsheetParser, type SpreadsheetState, createSpreadsheetParser, readSpreadsheetState, readOptionsOf, resolveEncoding } from '../parsers/spreadsheet/index.js';
import type { CommitProgress } from '../components/contract.js';
import type { BatchCommitter } from '../pipeline/batch-committer.js';
import type { ChunkFastPath, LinesFastPath } from '../components/chunk-fast-path.js';
import type { ParseRequest, ParseResponse } from '../components/parse-protocol.js';
import { CHUNK_BYTES, MAX_LINE_BYTES, RECORD_CHUNK_BYTES, tailOf } from '../receivers/file-source/file-reader.js';
import { recordIdOf } from '../receivers/file-source/record-ids.js';
import type { DocumentHandler } from './document-handler.js';
import { isDocumentParser } from '../../../shared/config/parsers/kinds.js';
import { say, type AgentMessage } from '../../../shared/config/message.js';

const MAX_CACHED_PARSERS = 1000;

/**
 * The committed progress of a chunk that ends at `offset`: the file's, or its part's when the file
 * is split. `chunk` (read from request.offset): the file's progress keeps a hash of its last bytes
 * read.
 */
function progressOf(
  request: ParseRequest,
  offset: number,
  parserState: string,
  chunk?: Uint8Array,
): CommitProgress {
  if (request.part !== undefined)
    return {
      part: { path: request.path, start: request.part, from: request.offset, offset, parserState },
    };
  return {
    file: {
      path: request.path,
      ...request.file,
      offset,
      parserState,
      tail: chunk ? tailOf(chunk, request.offset, offset - request.offset) : '',
    },
  };
}

function readChunk(request: ParseRequest): { chunk: Buffer; size: number; limit: number } {
  if (request.bytes) {
    const size = request.fileSize ?? request.offset + request.bytes.byteLength;
    return { chunk: Buffer.from(request.bytes), size, limit: Math.min(size, request.end ?? size) };
  }
  const fd = fs.openSync(request.path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    // A part of a split file ends where the next part begins.
    const limit = Math.min(size, request.end ?? size);
    const length = Math.max(0, Math.min(request.chunkBytes, limit - request.offset));
    const chunk = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, chunk, read, length - read, request.offset + read);
      if (n === 0) break;
      read += n;
    }
    return { chunk: chunk.subarray(0, read), size, limit };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * How much of a big file's first chunk (more than CHUNK_BYTES unread) the general path parses when
 * the fused path may take the rest: the header and a few rows, so that the general path's functions
 * (row and record objects, their BSON) do not run hot enough in a parse thread for V8 to compile
 * them (~70 ms of compiling per thread start, docs/performance.md). A smaller file is not worth a
 * second commit.
 */
export const HEADER_CHUNK_BYTES = 16 * 1024;

/** What the general path parses of a chunk, and from which parser state. */
interface GeneralParse {
  parser: SpreadsheetParser;
  chunk: Buffer;
  state: SpreadsheetState;
  /** The file is complete and the chunk reaches its end (a last line without newline is a line). */
  final: boolean;
  /** Bytes parsed at most (RECORD_CHUNK_BYTES or HEADER_CHUNK_BYTES). */
  limit: number;
}

/**
 * The general path's parse of a chunk: at most `limit` bytes of it (RECORD_CHUNK_BYTES: its
 * records die young), the rest read by the next request; the whole chunk when that much holds no
 * complete line.
 */
function parseGeneral({ parser, chunk, state, final, limit }: GeneralParse): ChunkResult {
  if (chunk.length <= limit) return parser.parseChunk(chunk, state, final);
  const part = parser.parseChunk(chunk.subarray(0, limit), state, false);
  return part.consumedBytes > 0 || part.fatal ? part : parser.parseChunk(chunk, state, final);
}

/** A chunk read for a request: its bytes, the file's size, where the chunk's range ends. */
interface ReadChunk {
  request: ParseRequest;
  chunk: Buffer;
  size: number;
  limit: number;
  config: Parser;
  parser: SpreadsheetParser;
  state: SpreadsheetState;
  /** The file is complete and this chunk reaches its end. */
  final: boolean;
  nowMicros: bigint;
}

/** The fields every answer to a chunk request has. */
function answerOf({ request, chunk, size }: ReadChunk) {
  return { id: request.id, ok: true as const, chunkBytes: chunk.length, fileSize: size };
}

/** The records of a chunk's rows, for the general path's commit. */
function recordsOf(request: ParseRequest, rows: ChunkResult['rows'], nowMicros: bigint): AgentRecord[] {
  const { asset, stream_type } = request.plan.stream;
  const capturetime = isoMicros(nowMicros);
  return rows.map((row) => ({
    asset,
    stream_type,
    timestamp: row.timestampMicros === null ? capturetime : isoMicros(row.timestampMicros),
    capturetime,
    fieldvalues: row.fieldvalues,
    record_id: recordIdOf(request.recordIdPrefix, row.line),
  }));
}

/**
 * The JSON Lines fast path, or what loads it: it is loaded with the document readers, on a
 * thread's first document.
 */
export type LinesFastPathSource = LinesFastPath | null | (() => Promise<LinesFastPath | null>);

export class ChunkHandler {
  private readonly parsers = new Map<string, ReturnType<typeof createSpreadsheetParser>>();
  /**
   * Excel, JSON and XML files (read whole, a batch of records a request). Their readers (fflate,
   * saxes, a JSON tokenizer and ~20 modules of ours) are loaded on the first such request: a
   * thread that reads only CSV starts without them (a parse thread starts at each drop after a
   * minute without files: docs/performance.md, "Start of a drop").
   */
  private documents: DocumentHandler | undefined;
  private documentsLoading: Promise<DocumentHandler> | undefined;

  /** `fused` null: every chunk takes the general path. */
  constructor(
    private readonly committer: BatchCommitter,
    private readonly fused: ChunkFastPath<SpreadsheetState> | null,
    private readonly lines: LinesFastPathSource = null,
  ) {}

  /** A document's request answers once its readers are loaded (a promise the first time). */
  handle(request: ParseRequest): ParseResponse | Promise<ParseResponse> {
    if (isDocumentParser(request.parser as Parser)) {
      if (this.documents) return this.documents.handle(request);
      return this.loadDocuments().then((documents) => documents.handle(request));
    }
    return this.handleChunk(request);
  }

  /** A chunk of a file read line by line (CSV and the other spreadsheet texts): always at once. */
  handleChunk(request: ParseRequest): ParseResponse {
    if (request.skipTo !== undefined)
      return this.skipLongLine({ ...request, skipTo: request.skipTo });
    const read = this.readChunk(request);
    return this.commitFused(read) ?? this.commitGeneral(read);
  }

  private loadDocuments(): Promise<DocumentHandler> {
    this.documentsLoading ??= (async () => {
      const lines = typeof this.lines === 'function' ? this.lines() : this.lines;
      const [{ DocumentHandler }, linesPath] = await Promise.all([import('./document-handler.js'), lines]);
      return (this.documents = new DocumentHandler(this.committer, linesPath));
    })().catch((cause: unknown) => {
      // Tried again with the next document.
      this.documentsLoading = undefined;
      throw cause;
    });
    return this.documentsLoading;
  }

  /** The request's chunk read, with its parser's state before it. */
  private readChunk(request: ParseRequest): ReadChunk {
    const { chunk, size, limit } = readChunk(request);
    const atEnd = request.offset + chunk.length >= limit;
    const config = request.parser as Parser;
    const parser = this.parserFor(config);
    const state = request.state
      ? readSpreadsheetState(request.state)
      : parser.initialState();
    const nowMicros = BigInt(request.nowMicros);
    return {
      request,
      chunk,
      size,
      limit,
      config,
      parser,
      state,
      final: request.final && atEnd,
      nowMicros,
    };
  }

  /** The chunk committed as the fast path encoded it, or null when the fast path declines it. */
  private commitFused(read: ReadChunk): ParseResponse | null {
    const { request, chunk, config, state, final, nowMicros } = read;
    const { plan, path, recordIdPrefix } = request;
    const fast = {
      plan,
      path,
      recordIdPrefix,
      nowMicros,
      parser: config,
      bytes: chunk,
      state,
      final,
    };
    const fused = this.fused?.read(fast);
    if (!fused) return null;
    const { parsed, encoded } = fused;
    const progress = progressOf(
      request,
      request.offset + parsed.consumedBytes,
      JSON.stringify(parsed.state),
      chunk,
    );
    const commit = this.committer.commitEncoded(request.plan, encoded, progress, nowMicros);
    return {
      ...answerOf(read),
      rows: parsed.rows,
      commit,
      badLines: [],
      skippedLines: 0,
      consumedBytes: parsed.consumedBytes,
      state: parsed.state,
      fatal: undefined,
    };
  }

  /** The chunk's rows as records (the general path), committed with the file's new position. */
  private commitGeneral(read: ReadChunk): ParseResponse {
    const { request, chunk, limit, parser, state, final, nowMicros } = read;
    const headerOnly =
      state.header === null && this.fused !== null && limit - request.offset > CHUNK_BYTES;
    const result = parseGeneral({
      parser,
      chunk,
      state,
      final,
      limit: headerOnly ? HEADER_CHUNK_BYTES : RECORD_CHUNK_BYTES,
    });
    const records = recordsOf(request, result.rows, nowMicros);
    const progress = progressOf(
      request,
      request.offset + result.consumedBytes,
      JSON.stringify(result.state),
      chunk,
    );
    const commit = this.committer.commit(request.plan, records, progress, nowMicros);
    return {
      ...answerOf(read),
      rows: records.length,
      commit,
      badLines: result.badLines,
      skippedLines: result.skippedLines ?? 0,
      consumedBytes: result.consumedBytes,
      state: result.state,
      fatal: result.fatal,
    };
  }

  /** Closes the documents being read (their files). */
  close(): void {
    this.documents?.close();
  }

  private parserFor(config: Parser) {
    const key = JSON.stringify(config);
    let parser = this.parsers.get(key);
    if (!parser) {
      // The threads serve every receiver, through every configuration saved since they started:
      // parsers of configurations long gone must not pile up.
      if (this.parsers.size >= MAX_CACHED_PARSERS) this.parsers.clear();
      parser = createSpreadsheetParser(config);
      this.parsers.set(key, parser);
    }
    return parser;
  }

  /**
   * A line longer than MAX_LINE_BYTES (file-reader.ts): a bad line under bad_lines_action, skipped
   * unread up to `skipTo` (its end). The header, and lines of UTF-16 files (whose newline the skip
   * cannot find byte-wise), stop the file instead.
   */
  private skipLongLine(request: ParseRequest & { skipTo: number }): ParseResponse {
    const config = request.parser as Parser;
    const parser = this.parserFor(config);
    const state = request.state
      ? readSpreadsheetState(request.state)
      : parser.initialState();
    const line = state.linesSeen + 1;
    const action = readOptionsOf(config).badLinesAction;
    const mib = MAX_LINE_BYTES / 1024 / 1024;
    const said = say('csv.line_too_long', 'Line {line} is longer than {mib} MiB (no line break): not a line of this CSV file.', { line, mib });
    const answer = {
      id: request.id,
      ok: true as const,
      rows: 0,
      badLines: [] as { line: number; message: string; said?: AgentMessage }[],
      skippedLines: 0,
      consumedBytes: 0,
      chunkBytes: 0,
      fileSize: request.fileSize ?? 0,
      state,
    };
    if (action === 'error' || state.header === null || state.encoding === null || resolveEncoding(state.encoding).width === 2) {
      const stops = say('csv.line_too_long_stops', 'Line {line} is longer than {mib} MiB (no line break): not a line of this CSV file. Reading of this file stops here until the line is fixed.', { line, mib });
      return { ...answer, fatal: { line, message: stops.text, said: stops } };
    }
    const next = { ...state, linesSeen: state.linesSeen + 1, rowsSeen: state.rowsSeen + 1 };
    const commit = this.committer.commit(
      request.plan,
      [],
      progressOf(request, request.skipTo, JSON.stringify(next)),
      BigInt(request.nowMicros),
    );
    return {
      ...answer,
      commit,
      state: next,
      consumedBytes: request.skipTo - request.offset,
      badLines: action === 'warn' ? [{ line, message: said.text, said }] : [],
      skippedLines: action === 'skip' ? 1 : 0,
    };
  }
}
