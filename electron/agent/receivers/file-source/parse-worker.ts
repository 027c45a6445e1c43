/**
 * Worker thread that reads, parses and commits file chunks (rows → records → transforms → outbox,
 * with the file's new position, in one transaction), so that big files never block the thread
 * serving the API and the console. One of the agent's shared parse threads (ParseWorkerPool): a
 * chunk of any receiver, one at a time; answers carry the request id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';
import type { Parser } from '../../../../shared/config/schema.js';
import { type AgentRecord, isoMicros } from '../../../../shared/records/record.js';
import { builtInComponents } from '../../components/built-in.js';
import { SpreadsheetStateSchema, createSpreadsheetParser, readOptionsOf, resolveEncoding } from '../../parsers/spreadsheet/index.js';
import { WorkerCommitTargets } from '../../pipeline/worker-commit-targets.js';
import { BatchCommitter } from '../../pipeline/batch-committer.js';
import type { CommitProgress } from '../../components/contract.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';
import { MAX_LINE_BYTES } from './file-reader.js';
import { recordIdOf } from './record-ids.js';

// The same registry as the main thread's (one module): the same transforms and outbox codecs.
const committer = new BatchCommitter(builtInComponents(), new WorkerCommitTargets());
lowerThreadPriority();

/**
 * Bulk reading yields to everything else on the edge PC, the API thread of this process included:
 * on Linux this thread (only) gets nice 10. Elsewhere the priority stays as it is.
 */
function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    // Not permitted or not available: run at normal priority.
  }
}

type ParserConfig = Parser;
const parsers = new Map<string, ReturnType<typeof createSpreadsheetParser>>();
const MAX_CACHED_PARSERS = 1000;

function parserFor(config: ParserConfig) {
  const key = JSON.stringify(config);
  let parser = parsers.get(key);
  if (!parser) {
    // The threads serve every receiver, through every configuration saved since they started:
    // parsers of configurations long gone must not pile up.
    if (parsers.size >= MAX_CACHED_PARSERS) parsers.clear();
    parser = createSpreadsheetParser(config);
    parsers.set(key, parser);
  }
  return parser;
}

/** The committed progress of a chunk that ends at `offset`: the file's, or its part's when the file is split. */
function progressOf(request: ParseRequest, offset: number, parserState: string): CommitProgress {
  if (request.part !== undefined) return { part: { path: request.path, start: request.part, from: request.offset, offset, parserState } };
  return { file: { path: request.path, ...request.file, offset, parserState } };
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
 * A line longer than MAX_LINE_BYTES (file-reader.ts): a bad line under bad_lines_action, skipped
 * unread up to `skipTo` (its end). The header, and lines of UTF-16 files (whose newline the skip
 * cannot find byte-wise), stop the file instead.
 */
function skipLongLine(request: ParseRequest & { skipTo: number }): ParseResponse {
  const config = request.parser as ParserConfig;
  const parser = parserFor(config);
  const state = request.state ? SpreadsheetStateSchema.parse(request.state) : parser.initialState();
  const line = state.linesSeen + 1;
  const action = readOptionsOf(config).badLinesAction;
  const message = `Line ${line} is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB (no line break): not a line of this CSV file.`;
  const answer = { id: request.id, ok: true as const, rows: 0, badLines: [] as { line: number; message: string }[], skippedLines: 0, consumedBytes: 0, chunkBytes: 0, fileSize: request.fileSize ?? 0, state };
  if (action === 'error' || state.header === null || state.encoding === null || resolveEncoding(state.encoding).width === 2)
    return { ...answer, fatal: { line, message: `${message} Reading of this file stops here until the line is fixed.` } };
  const next = { ...state, linesSeen: state.linesSeen + 1, rowsSeen: state.rowsSeen + 1 };
  const commit = committer.commit(request.plan, [], progressOf(request, request.skipTo, JSON.stringify(next)), BigInt(request.nowMicros));
  return {
    ...answer,
    commit,
    state: next,
    consumedBytes: request.skipTo - request.offset,
    badLines: action === 'warn' ? [{ line, message }] : [],
    skippedLines: action === 'skip' ? 1 : 0,
  };
}

function handle(request: ParseRequest): ParseResponse {
  if (request.skipTo !== undefined) return skipLongLine({ ...request, skipTo: request.skipTo });
  const { chunk, size, limit } = readChunk(request);
  const atEnd = request.offset + chunk.length >= limit;
  const parser = parserFor(request.parser as ParserConfig);
  const state = request.state ? SpreadsheetStateSchema.parse(request.state) : parser.initialState();
  const result = parser.parseChunk(chunk, state, request.final && atEnd);
  const { asset, stream_type } = request.plan.stream;
  const nowMicros = BigInt(request.nowMicros);
  const capturetime = isoMicros(nowMicros);
  const records: AgentRecord[] = result.rows.map((row) => ({
    asset,
    stream_type,
    timestamp: row.timestampMicros === null ? capturetime : isoMicros(row.timestampMicros),
    capturetime,
    fieldvalues: row.fieldvalues,
    record_id: recordIdOf(request.recordIdPrefix, row.line),
  }));
  const commit = committer.commit(request.plan, records, progressOf(request, request.offset + result.consumedBytes, JSON.stringify(result.state)), nowMicros);
  return {
    id: request.id,
    ok: true,
    rows: records.length,
    commit,
    badLines: result.badLines,
    skippedLines: result.skippedLines ?? 0,
    consumedBytes: result.consumedBytes,
    chunkBytes: chunk.length,
    fileSize: size,
    state: result.state,
    fatal: result.fatal,
  };
}

parentPort?.on('message', (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    response = handle(request);
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException;
    response = { id: request.id, ok: false, error: error.message, code: error.code, thread: threadId };
  }
  parentPort!.postMessage(response);
});
