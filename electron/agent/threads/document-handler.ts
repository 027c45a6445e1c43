/**
 * What a parse thread does with a request for a file read as a whole document (excel, json, xml):
 * the next batch of its records, committed with the count read so far (document-state.ts), through
 * the same BatchCommitter as CSV chunks. The reader stays open between the batches of a file; a
 * request that finds none open (another thread, a restart) opens the file again and skips the
 * records already committed, so a crash repeats and loses nothing.
 */
import { isDocumentParser } from '../../../shared/config/parsers/kinds.js';
import type { Parser } from '../../../shared/config/schema.js';
import { type AgentRecord, isoMicros } from '../../../shared/records/record.js';
import { DocumentError, type DocumentReader, openDocumentReader, openFileSource } from '../parsers/document/index.js';
import type { BatchCommitter } from '../pipeline/batch-committer.js';
import type { LinesFastPath } from '../components/chunk-fast-path.js';
import { type DocumentState, DocumentStateSchema, RecordDigest, firstState } from '../receivers/file-source/document-state.js';
import type { ParseRequest, ParseResponse } from '../components/parse-protocol.js';
import { recordIdOf, recordIdPrefix } from '../receivers/file-source/record-ids.js';

/** Records committed per request: the size of a CSV chunk's batch. */
export const DOCUMENT_BATCH_RECORDS = 2000;
/**
 * JSON Lines: records per request, twice a document's batch (one commit
 * transaction and one round trip to the main thread per 2,000 records were a fifth of the time);
 * long lines are cut short by their text (DOCUMENT_LIMITS.batchChars).
 */
export const JSON_LINES_BATCH_RECORDS = 4000;

/** Records the handler asks a reader for in one request. */
export function batchRecordsOf(config: Parser): number {
  return config.parser_type === 'json' && config.options?.lines === true ? JSON_LINES_BATCH_RECORDS : DOCUMENT_BATCH_RECORDS;
}
/** Readers kept open at once per thread (files read at the same time). */
const MAX_SESSIONS = 8;

/** A parser configuration of a file read whole. */
type DocumentParser = Parser & { parser_type: 'excel' | 'json' | 'xml' };

interface Session {
  key: string;
  reader: DocumentReader;
  state: DocumentState;
}

export class DocumentHandler {
  private readonly sessions = new Map<string, Session>();

  /**
   * `fused` null: every batch of JSON Lines is read by the reader (the reference the fused path is
   * tested against).
   */
  constructor(
    private readonly committer: BatchCommitter,
    private readonly fused: LinesFastPath | null,
  ) {}

  handle(request: ParseRequest): ParseResponse {
    const config = request.parser as Parser;
    if (!isDocumentParser(config)) throw new Error('not a document parser');
    const key = `${request.path}\0${request.file.fingerprint}\0${JSON.stringify(config)}`;
    const state = request.state
      ? DocumentStateSchema.parse(request.state)
      : firstState(request.file.fingerprint);
    const answer = {
      id: request.id,
      ok: true as const,
      chunkBytes: 0,
      fileSize: request.file.size,
      skippedLines: 0,
    };
    let session = this.sessions.get(key);
    const fused = this.readFused(request, config, state, answer);
    if (fused) {
      if (session) this.drop(session);
      return fused;
    }
    // The state the file's reader stands at (a rewritten file compared: where it goes on).
    let current = state;
    try {
      if (
        !session ||
        session.state.records !== state.records ||
        session.state.digest !== state.digest
      ) {
        session?.reader.close();
        // JSON Lines start again at the byte after the last committed record; others skip records.
        session = {
          key,
          reader: this.open(request, config, state.previous ? undefined : state.resume),
          state,
        };
        this.keep(session);
        current = this.bringTo(session, state, request);
        session.state = current;
      }
      return { ...answer, ...this.readBatch(request, config, session, current) };
    } catch (cause) {
      if (session) this.drop(session);
      if (!(cause instanceof DocumentError)) throw cause;
      // A broken file is done with until it changes: its place is in the marker, not read on every
      // look.
      const next: DocumentState = { ...current, previous: undefined, failed: cause.message };
      const commit = this.commit(request, [], next, true);
      const fatal = { line: 0, message: cause.message };
      return {
        ...answer,
        rows: 0,
        commit,
        badLines: [],
        consumedBytes: request.file.size,
        state: next,
        fatal,
      };
    }
  }

  /**
   * A reader newly opened brought to where the committed state stands: a rewritten file compared
   * with what was sent of it, records already committed skipped (unless the reader resumed at a
   * byte). Returns the state it stands at.
   */
  private bringTo(session: Session, state: DocumentState, request: ParseRequest): DocumentState {
    if (state.previous) return this.compare(session, state, request);
    if (!state.resume) this.skip(session, state.records);
    return state;
  }

  /** The session's next batch of records, committed with the count read so far. */
  private readBatch(
    request: ParseRequest,
    config: DocumentParser,
    session: Session,
    state: DocumentState,
  ) {
    const { reader } = session;
    const batch = reader.next(batchRecordsOf(config));
    const badLines = reader.takeProblems().map((problem) => ({ line: 0, message: problem }));
    const prefix = recordIdPrefix(request.plan.stream, request.path, state.ids);
    const capturetime = isoMicros(BigInt(request.nowMicros));
    const { asset, stream_type } = request.plan.stream;
    const digest = new RecordDigest(state.digest);
    const records: AgentRecord[] = batch.map((record, i) => {
      digest.add(record);
      return {
        asset,
        stream_type,
        timestamp:
          record.timestampMicros === undefined ? capturetime : isoMicros(record.timestampMicros),
        capturetime,
        fieldvalues: record.fieldvalues,
        record_id: recordIdOf(prefix, state.records + i + 1),
      };
    });
    const done = reader.done;
    const resume = batch.length > 0 ? batch[batch.length - 1]!.resume : state.resume;
    const next: DocumentState = {
      records: state.records + records.length,
      digest: batch.length > 0 ? digest.value : state.digest,
      ids: state.ids,
      ...(resume ? { resume } : {}),
    };
    const commit = this.commit(request, records, next, done);
    if ('full' in commit || done) this.drop(session);
    else session.state = next;
    return {
      rows: records.length,
      commit,
      badLines,
      consumedBytes: done ? request.file.size : 0,
      state: next,
    };
  }

  /**
   * The next batch by the fused path of JSON Lines
   * (transmits/remotedatapost/fused-json-lines.ts), or null when it declines.
   */
  private readFused(
    request: ParseRequest,
    config: Parser,
    state: DocumentState,
    answer: { id: number; ok: true; chunkBytes: number; fileSize: number; skippedLines: number },
  ): ParseResponse | null {
    if (!this.fused || state.previous || (state.records > 0 && !state.resume)) return null;
    const digest = new RecordDigest(state.digest);
    const batch = this.fused.read({
      plan: request.plan,
      parser: config,
      file: request.localPath ?? request.path,
      name: request.path,
      from: state.resume ?? { byte: 0, line: 0 },
      records: state.records,
      idPrefix: recordIdPrefix(request.plan.stream, request.path, state.ids),
      nowMicros: BigInt(request.nowMicros),
      max: batchRecordsOf(config),
      digest,
    });
    if (!batch) return null;
    const resume = batch.resume ?? state.resume;
    const next: DocumentState = {
      records: state.records + batch.records,
      digest: batch.records > 0 ? digest.value : state.digest,
      ids: state.ids,
      ...(resume ? { resume } : {}),
    };
    const commit = this.committer.commitEncoded(
      request.plan,
      batch.encoded,
      this.progress(request, next, batch.done),
      BigInt(request.nowMicros),
    );
    const badLines = batch.problems.map((message) => ({ line: 0, message }));
    return {
      ...answer,
      rows: batch.records,
      commit,
      badLines,
      consumedBytes: batch.done ? request.file.size : 0,
      state: next,
    };
  }

  /** Closes every open reader (the thread ends). */
  close(): void {
    for (const session of [...this.sessions.values()]) this.drop(session);
  }

  private open(
    request: ParseRequest,
    config: DocumentParser,
    resume?: { byte: number; line: number },
  ): DocumentReader {
    return openDocumentReader(
      config,
      openFileSource(request.localPath ?? request.path),
      request.path,
      resume,
    );
  }

  private skip(session: Session, records: number): void {
    for (let left = records; left > 0;) {
      const skipped = session.reader.next(Math.min(left, DOCUMENT_BATCH_RECORDS)).length;
      session.reader.takeProblems();
      if (skipped === 0) break;
      left -= skipped;
    }
  }

  /**
   * A rewritten file: reads as many records as were sent of it before; when they are the same (the
   * digest), goes on after them under the same ids; otherwise reads it all again under new ones.
   */
  private compare(session: Session, state: DocumentState, request: ParseRequest): DocumentState {
    const previous = state.previous!;
    const digest = new RecordDigest('');
    let read = 0;
    let resumeAt: { byte: number; line: number } | undefined;
    while (read < previous.records) {
      const batch = session.reader.next(Math.min(previous.records - read, DOCUMENT_BATCH_RECORDS));
      session.reader.takeProblems();
      if (batch.length === 0) break;
      for (const record of batch) digest.add(record);
      read += batch.length;
      resumeAt = batch[batch.length - 1]!.resume;
    }
    if (read >= previous.records && digest.value === previous.digest)
      return {
        records: previous.records,
        digest: digest.value,
        ids: state.ids,
        ...(resumeAt ? { resume: resumeAt } : {}),
      };
    session.reader.close();
    session.reader = this.open(request, request.parser as never);
    return firstState(request.file.fingerprint);
  }

  private commit(
    request: ParseRequest,
    records: AgentRecord[],
    state: DocumentState,
    done: boolean,
  ) {
    return this.committer.commit(
      request.plan,
      records,
      this.progress(request, state, done),
      BigInt(request.nowMicros),
    );
  }

  private progress(request: ParseRequest, state: DocumentState, done: boolean) {
    // Offset 0 until the last record: the file is read again (from its state) after a crash.
    return {
      file: {
        path: request.path,
        ...request.file,
        offset: done ? request.file.size : 0,
        parserState: JSON.stringify(state),
      },
    };
  }

  private keep(session: Session): void {
    this.sessions.delete(session.key);
    this.sessions.set(session.key, session);
    if (this.sessions.size > MAX_SESSIONS) this.drop(this.sessions.values().next().value!);
  }

  private drop(session: Session): void {
    session.reader.close();
    if (this.sessions.get(session.key) === session) this.sessions.delete(session.key);
  }
}
