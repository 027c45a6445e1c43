/**
 * Reads a file whose parser reads whole documents (excel, json, xml): once it is complete (its size
 * unchanged for the settle time, as for a CSV file's last line), batch after batch in a parse
 * thread (threads/document-handler.ts), each batch committed with the records read so far. A
 * rewritten file is read again: records sent before are not sent again when the file only grew
 * (document-state.ts). A broken file gets an error marker naming it and the place; the other files
 * go on.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReadFileOptions } from './file-reader.js';
import { FINGERPRINT_BYTES, fingerprintOf } from './file-reader.js';
import { type DocumentState, DocumentStateSchema, firstState } from './document-state.js';
import { type ThreadDiedError, isThreadDeath } from '../../workers/worker-client.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/** Bytes of a remote file copied per request while it is fetched to a local temporary file. */
const COPY_BYTES = 1024 * 1024;
/** A remote document larger than this is not copied to this PC (a share must not fill its disk). */
export const MAX_REMOTE_DOCUMENT_BYTES = 1024 * 1024 * 1024;
/** Room that stays free on the temporary folder's disk after a copy. */
const KEEP_FREE_BYTES = 256 * 1024 * 1024;

export async function readDocument(
  options: ReadFileOptions,
): Promise<{ complete: boolean; records: number; thread: string }> {
  const { receiver, stream, file, context } = options;
  let thread = context.logger.thread;
  const logger = () => context.logger.child(context.logger.component, thread);
  // A workbook or document half written is not one: wait until it is complete.
  if (!file.settled) return { complete: false, records: 0, thread };
  const prefix = await options.readPrefix(Math.min(file.size, FINGERPRINT_BYTES));
  const fingerprint = fingerprintOf(prefix);
  const progress = context.store.fileProgress(receiver, stream, file.path);
  const stored = progress
    ? DocumentStateSchema.safeParse(safeJson(progress.parserState))
    : undefined;
  let state: DocumentState = firstState(fingerprint);
  if (progress && stored?.success) {
    const same =
      progress.fingerprint === fingerprint &&
      progress.size === file.size &&
      progress.mtimeMs === file.mtimeMs;
    if (same && progress.offset >= file.size) return { complete: true, records: 0, thread };
    if (same) state = stored.data;
    else if (!stored.data.failed && stored.data.records > 0) {
      logger().info(
        `${file.path} was rewritten: comparing it with the ${stored.data.records} record(s) sent of it before`,
      );
      state = {
        ...firstState(fingerprint),
        ids: stored.data.ids,
        previous: { records: stored.data.records, digest: stored.data.digest },
      };
    }
  }
  let copy: string | undefined;
  let records = 0;
  context.pipeline.reading(receiver, stream, file.path, { bytesRead: 0, size: file.size });
  try {
    if (options.readRange) {
      const refused = await copyRefused(file.size);
      if (refused) {
        const said = say('file.document_not_copied', '{file} is not read: {reason}. It is tried again when it changes.', { file: file.path, reason: refused });
        context.markers.raise([stream], 'error', 'parse_error', said);
        logger().error(said.text);
        return { complete: false, records, thread };
      }
      copy = await copyToLocal(options.readRange, file.size);
    }
    for (;;) {
      const response = await options.worker
        .parse(
        {
          path: file.path,
          ...(copy ? { localPath: copy } : {}),
          fileSize: file.size,
          offset: 0,
          chunkBytes: 0,
          parser: options.parser,
          state,
          final: true,
          file: { size: file.size, mtimeMs: file.mtimeMs, fingerprint },
          recordIdPrefix: '',
          plan: context.pipeline.plan(receiver, stream),
          nowMicros: String(context.clock.nowMicros()),
        },
        options.signal,
      )
        .catch((cause: unknown) => {
          if (!isThreadDeath(cause)) throw cause;
          return cause;
        });
      if (isThreadDeath(response)) {
        const named = killedThread(options, fingerprint, state, response);
        return { complete: false, records, thread: named };
      }
      thread = response.threadName;
      if (!response.ok) throw Object.assign(new Error(response.error), { code: response.code });
      if (response.commit) context.pipeline.afterCommit(receiver, stream, response.commit);
      const wasComparing = state.previous !== undefined;
      state = DocumentStateSchema.parse(response.state);
      if (wasComparing)
        logger().info(
          state.ids === fingerprint && state.ids !== stored?.data?.ids
            ? `${file.path} changed: all its records are read again`
            : `${file.path}: the records sent before are unchanged; reading on after them`,
        );
      records += response.rows;
      if (response.badLines.length > 0) {
        const said = recordsSkipped(file.path, response.badLines);
        context.markers.raise([stream], 'warning', 'bad_lines', said);
        logger().warn(said.text);
      }
      if (response.fatal) {
        const said = say('file.document_broken', '{problem}. Reading of this file stops here until it is written again.', { problem: response.fatal.said ?? response.fatal.message });
        context.markers.raise([stream], 'error', 'parse_error', said);
        logger().error(said.text);
        return { complete: false, records, thread };
      }
      context.pipeline.reading(receiver, stream, file.path, {
        bytesRead: response.consumedBytes,
        size: file.size,
      });
      if (response.consumedBytes >= file.size) break;
    }
    context.markers.clear('parse_error', [stream]);
    return { complete: true, records, thread };
  } finally {
    context.pipeline.reading(receiver, stream, file.path, null);
    if (copy) await fs.promises.rm(path.dirname(copy), { recursive: true, force: true });
  }
}

/**
 * The file ended the thread that read it (out of memory: more than the bounds foresaw, or a
 * crash). It is set aside as a broken document is: its progress says failed, at its full size, so
 * that it is not read again until it changes, after a restart too; a marker names it. Without
 * this, every look (and every restart) read it again and lost the thread again (issue 50).
 */
function killedThread(
  options: ReadFileOptions,
  fingerprint: string,
  state: DocumentState,
  death: ThreadDiedError,
): string {
  const { receiver, stream, file, context } = options;
  const said = say(
    'file.document_ended_thread',
    '{file} is not read: {error} while reading it. It is skipped until it changes; the thread was replaced. Save it smaller (or as CSV) to read it.',
    { file: file.path, error: threadDeathSaid(death) },
  );
  const parserState = JSON.stringify({ ...state, previous: undefined, failed: death.message });
  const { path: filePath, size, mtimeMs } = file;
  // Where this cannot be kept (a full disk), the receiver skips the file in memory (the death is
  // thrown on to it): until it changes or the agent restarts.
  try {
    context.pipeline.submit(receiver, stream, [], {
      file: { path: filePath, size, mtimeMs, offset: size, fingerprint, parserState, tail: '' },
    });
  } catch {
    throw death;
  }
  context.markers.raise([stream], 'error', 'parse_error', said);
  context.logger.error(said.text);
  return context.logger.thread;
}

/**
 * The records a parser skipped: how many, and the first three problems in the parser's words
 * (its own text, not yet said by code).
 */
function recordsSkipped(file: string, bad: readonly { message: string }[]): AgentMessage {
  const problems = bad.slice(0, 3).map((b) => b.message).join('; ');
  return bad.length > 3
    ? say('file.records_skipped_more', '{count} record(s) of {file} skipped: {problems}; …', { count: bad.length, file, problems })
    : say('file.records_skipped', '{count} record(s) of {file} skipped: {problems}', { count: bad.length, file, problems });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Why a remote document of this size is not copied to the temporary folder, if it is not. */
export async function copyRefused(
  size: number,
  folder = os.tmpdir(),
): Promise<AgentMessage | undefined> {
  const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
  if (size > MAX_REMOTE_DOCUMENT_BYTES)
    return say('file.document_too_large', 'at {size_mib} MiB it is larger than the {max_mib} MiB a document on a share may be', { size_mib: mib(size), max_mib: mib(MAX_REMOTE_DOCUMENT_BYTES) });
  const disk = await fs.promises.statfs(folder).catch(() => undefined);
  const free = disk ? disk.bavail * disk.bsize : Number.POSITIVE_INFINITY;
  if (free - size < KEEP_FREE_BYTES)
    return say('file.copy_no_room', 'its copy ({size_mib} MiB) would leave less than {keep_mib} MiB free in {folder}', { size_mib: mib(size), keep_mib: mib(KEEP_FREE_BYTES), folder });
  return undefined;
}

/** A parse thread that ended, in words with a code: out of memory, or how it ended. */
export function threadDeathSaid(death: ThreadDiedError): AgentMessage {
  const cause = death.cause instanceof Error ? death.cause.message : String(death.cause);
  return death.outOfMemory
    ? say('file.thread_out_of_memory', 'the parse thread {thread} ran out of memory', { thread: death.threadName })
    : say('file.thread_ended', 'the thread {thread} ended ({error})', { thread: death.threadName, error: cause });
}

/**
 * A remote file (SMB) copied to a temporary local file, piece by piece: parse threads read it
 * there.
 */
async function copyToLocal(
  read: (offset: number, length: number) => Promise<Buffer>,
  size: number,
): Promise<string> {
  const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tributary-document-'));
  const target = path.join(folder, 'document');
  const handle = await fs.promises.open(target, 'w');
  try {
    for (let offset = 0; offset < size;) {
      const bytes = await read(offset, Math.min(COPY_BYTES, size - offset));
      if (bytes.length === 0) break;
      await handle.write(bytes, 0, bytes.length, offset);
      offset += bytes.length;
    }
  } finally {
    await handle.close();
  }
  return target;
}
