/**
 * `parser_type: "json"`: JSON Lines (options.lines, one value a line, each parsed on its own) or
 * one document, streamed by @streamparser/json so that only the record being read is in memory;
 * `record_path` leads to the array of records. A broken line of JSON Lines is skipped with a
 * marker; a broken document stops at the place of the error (the records before it are kept).
 */
import { JSONParser } from '@streamparser/json';
import type { JsonParserSchema } from '../../../../shared/config/parsers/index.js';
import type { z } from 'zod';
import { type ByteSource, DOCUMENT_LIMITS, DocumentError, type DocumentReader, type DocumentRecord, SequentialBytes } from '../document/document-reader.js';
import { type DocumentTimes, createDocumentTimes } from '../document/document-times.js';
import { flattenRecord } from './flatten.js';
import type { FieldValue } from '../../../../shared/records/record.js';

type JsonConfig = z.infer<typeof JsonParserSchema>;

/** Longest line of JSON Lines read: a longer one is skipped (bad), never buffered whole. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export function openJsonReader(config: JsonConfig, source: ByteSource, name: string, resume?: { byte: number; line: number }): DocumentReader {
  const times = createDocumentTimes(config.options);
  return config.options?.lines ? new JsonLinesReader(source, name, times, resume) : new JsonDocumentReader(source, config, times, name);
}

abstract class QueueReader implements DocumentReader {
  protected readonly queue: DocumentRecord[] = [];
  protected problems: string[] = [];
  protected finished = false;
  constructor(protected readonly source: ByteSource, protected readonly times: DocumentTimes) {}
  get done(): boolean {
    return this.finished && this.queue.length === 0 && this.pending === undefined;
  }
  takeProblems(): string[] {
    return this.problems.splice(0);
  }
  close(): void {
    this.source.close();
  }
  /** Characters of the queued records' own texts (JSON Lines): a batch stops at DOCUMENT_LIMITS.batchChars. */
  protected queuedChars = 0;
  /** Records asked for by the current next(). */
  protected wanted = 0;
  next(max: number): DocumentRecord[] {
    this.wanted = max;
    try {
      while (!this.full && !this.finished) this.step();
    } catch (cause) {
      // The records before the broken place are read; the error comes with the next call.
      if (!(cause instanceof DocumentError) || this.queue.length === 0) throw cause;
      this.pending = cause;
    }
    if (this.pending && this.queue.length === 0) throw this.pending;
    const batch = this.queue.splice(0, max);
    for (const record of batch) this.queuedChars -= record.text?.length ?? 0;
    return batch;
  }
  private pending: DocumentError | undefined;
  protected abstract step(): void;
  /** Adds one parsed value as a record, or notes why it is not one (flattenRecord bounds its depth and fields). */
  protected add(value: unknown, place: string, resume?: { byte: number; line: number }, text?: string): void {
    const read = recordOfValue(value, this.times);
    if (typeof read === 'string') return void this.problems.push(`${place}: ${read}`);
    const record: DocumentRecord = { fieldvalues: read.fieldvalues, place };
    if (read.timestampMicros !== null) record.timestampMicros = read.timestampMicros;
    if (resume) record.resume = resume;
    if (text !== undefined) {
      record.text = text;
      this.queuedChars += text.length;
    }
    this.queue.push(record);
  }
  /** The batch asked for is complete: a JSON Lines reader stops right after the line that completed it. */
  protected get full(): boolean {
    return this.queue.length >= this.wanted || this.queuedChars >= DOCUMENT_LIMITS.batchChars;
  }
}

/** A parsed value's fields and timestamp, or why it is not a record. */
function recordOfValue(value: unknown, times: DocumentTimes): { fieldvalues: Record<string, FieldValue>; timestampMicros: bigint | null } | string {
  const fieldvalues = flattenRecord(value);
  if (typeof fieldvalues === 'string') return fieldvalues;
  const stamped = times.stamp(fieldvalues);
  return typeof stamped === 'string' ? stamped : { fieldvalues, timestampMicros: stamped };
}

/**
 * What the JSON Lines reader makes of one line (its text as decoded): a record's fields, timestamp
 * and digested text; a problem (without the place); or null for a blank line. The fused path
 * (fused-json-lines.ts) takes lines it does not scan itself through here.
 */
export function readJsonLine(line: string, times: DocumentTimes): { fieldvalues: Record<string, FieldValue>; timestampMicros: bigint | null; text: string } | { problem: string } | null {
  const text = line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  let value: unknown;
  try {
    // JSON.parse allows JSON's white space around the value; the rare line that fails is looked at again below.
    value = JSON.parse(text);
  } catch (cause) {
    const trimmed = text.trim();
    if (trimmed === '') return null;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { problem: (cause as Error).message };
    }
  }
  const read = recordOfValue(value, times);
  return typeof read === 'string' ? { problem: read } : { ...read, text };
}

class JsonLinesReader extends QueueReader {
  private readonly bytes: SequentialBytes;
  private carry: Buffer[] = [];
  private carried = 0;
  private line = 0;
  private skipping = false;
  constructor(source: ByteSource, private readonly name: string, times: DocumentTimes, resume?: { byte: number; line: number }) {
    super(source, times);
    this.bytes = new SequentialBytes(source, undefined, resume?.byte ?? 0);
    this.line = resume?.line ?? 0;
  }
  /** The chunk being read, where it starts in the file, and its next unread byte. */
  private chunk: Buffer = Buffer.alloc(0);
  private chunkStart = 0;
  private start = 0;
  /**
   * Reads lines until the batch asked for is complete (then stops right after that line, so that
   * batches depend on the file and the place read from, never on the chunks: the fused path makes
   * the same ones) or the chunk is read.
   */
  protected step(): void {
    if (this.start >= this.chunk.length) {
      if (this.bytes.atEnd) {
        if (this.carried > 0) this.addLine(Buffer.concat(this.carry).toString('utf8'), this.bytes.position);
        this.carry = [];
        this.finished = true;
        return;
      }
      this.chunkStart = this.bytes.position;
      this.chunk = this.bytes.nextChunk();
      this.start = 0;
    }
    const chunk = this.chunk;
    let start = this.start;
    // Each line decoded straight from the chunk (a newline byte is never inside a UTF-8 sequence).
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const text = this.carried > 0 ? Buffer.concat([...this.carry, chunk.subarray(start, nl)]).toString('utf8') : chunk.toString('utf8', start, nl);
      this.addLine(text, this.chunkStart + nl + 1);
      if (this.carried > 0) {
        this.carry = [];
        this.carried = 0;
      }
      start = nl + 1;
      if (this.full) {
        this.start = start;
        return;
      }
    }
    this.start = chunk.length;
    const rest = chunk.subarray(start);
    if (this.skipping || this.carried + rest.length > MAX_LINE_BYTES) {
      if (!this.skipping) this.problems.push(`${this.name} line ${this.line + 1}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB; skipped`);
      this.skipping = true;
      this.carry = [];
      this.carried = 0;
    } else if (rest.length > 0) {
      this.carry.push(Buffer.from(rest));
      this.carried += rest.length;
    }
  }
  private addLine(line: string, end: number): void {
    this.line += 1;
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const read = readJsonLine(line, this.times);
    if (read === null) return;
    const place = `${this.name} line ${this.line}`;
    if ('problem' in read) return void this.problems.push(`${place}: ${read.problem}`);
    const record: DocumentRecord = { fieldvalues: read.fieldvalues, place, resume: { byte: end, line: this.line }, text: read.text };
    if (read.timestampMicros !== null) record.timestampMicros = read.timestampMicros;
    this.queuedChars += read.text.length;
    this.queue.push(record);
  }
}

class JsonDocumentReader extends QueueReader {
  private readonly bytes: SequentialBytes;
  private parser: JSONParser | undefined;
  private index = 0;
  private failure: string | undefined;
  private lastOffset = -1;
  private readonly path: string[];
  constructor(source: ByteSource, config: JsonConfig, times: DocumentTimes, private readonly name: string) {
    super(source, times);
    this.bytes = new SequentialBytes(source);
    const recordPath = config.options?.record_path;
    this.path = recordPath === undefined ? [] : Array.isArray(recordPath) ? recordPath : [recordPath];
  }
  private start(first: string): JSONParser {
    // A document that is an object without record_path is one record; otherwise each element of the array.
    const selector = this.path.length === 0 && first === '{' ? '$' : `$${this.path.map((key) => `.${key}`).join('')}.*`;
    const parser = new JSONParser({ paths: [selector], keepStack: false });
    parser.onValue = ({ value }) => {
      this.index += 1;
      this.add(value, `${this.name} record ${this.index}`);
    };
    parser.onError = (error) => {
      this.failure ??= error.message;
    };
    // Where the last token was (a syntax error names its line and column), and how deep values
    // nest: a hostile document is stopped at the bound instead of being kept growing.
    let depth = 0;
    parser.onToken = ({ token, offset }) => {
      this.lastOffset = offset;
      if (token === 0 || token === 2) {
        if ((depth += 1) > DOCUMENT_LIMITS.maxDepth) throw new Error(`values nested deeper than ${DOCUMENT_LIMITS.maxDepth} levels`);
      } else if (token === 1 || token === 3) depth -= 1;
    };
    return parser;
  }
  protected step(): void {
    if (this.bytes.atEnd) {
      this.finished = true;
      if (!this.parser) return;
      if (!this.failure && !this.parser.isEnded) this.failure = 'the document ends before it is complete';
      this.throwFailure();
      return;
    }
    const at = this.bytes.position;
    let chunk = this.bytes.nextChunk();
    if (at === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    if (!this.parser) {
      const first = /\S/.exec(chunk.toString('latin1'))?.[0];
      if (first === undefined) return;
      this.parser = this.start(first);
    }
    if (this.parser.isEnded) {
      if (/\S/.test(chunk.toString('latin1'))) this.failure ??= 'text after the end of the document';
    } else {
      try {
        this.parser.write(chunk);
      } catch (cause) {
        this.failure ??= (cause as Error).message;
      }
    }
    this.throwFailure();
  }
  private throwFailure(): void {
    if (this.failure === undefined) return;
    this.finished = true;
    const position = Number(/absolute position "(\d+)"/.exec(this.failure)?.[1] ?? this.lastOffset);
    const place = `${this.name} ${position < 0 ? `after record ${this.index}` : lineColumn(this.source, position)}`;
    throw new DocumentError(place, `not valid JSON (${this.failure.replace(/ in state \w+$/, '')})`);
  }
}

/** "line L column C" of a byte position (counted again from the start: only when a file is broken). */
function lineColumn(source: ByteSource, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = 0; at < position; at += DOCUMENT_LIMITS.readBytes) {
    const chunk = source.read(at, Math.min(DOCUMENT_LIMITS.readBytes, position - at));
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, nl + 1)) {
      line += 1;
      lineStart = at + nl + 1;
    }
  }
  return `line ${line} column ${position - lineStart + 1}`;
}
