import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SystemClock } from '../time/clock.js';
import { LogFile } from '../logging/log-file.js';
import { Logger, Redactor } from '../logging/logger.js';
import { tempDirectory } from '../../testing/test-host.js';
import { waitFor } from '../../testing/file-plant.js';
import { AgentStore } from '../store/agent-store.js';
import { INLINE_CHUNK_BYTES, ParseWorkerPool } from './parse-worker-pool.js';
import type { ParseRequest } from '../components/parse-protocol.js';

const logger = () => new Logger(new LogFile(`${tempDirectory()}/agent_core.log`, { maxBytes: 1e6, keep: 1 }), new Redactor(), new SystemClock(), 'test');

/** A chunk of a file that does not exist: the thread answers at once with ENOENT. */
const missingChunk = (n: number): Omit<ParseRequest, 'id'> => ({
  path: `/nonexistent/tributary/${n}.csv`,
  offset: 0,
  chunkBytes: 1024,
  parser: { parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8' },
  state: null,
  final: true,
  file: { size: 10, mtimeMs: 0, fingerprint: '0:0' },
  recordIdPrefix: 'x',
  plan: { id: `plan-${n}`, storeFile: `${tempDirectory()}/agent.db`, receiver: `r${n}`, stream: { asset: 'a', stream_type: 'b' }, transforms: [], routes: [], returnRecords: false },
  nowMicros: '0',
});

describe('parse worker pool', () => {
  it('serves many receivers with a fixed number of threads, first come first served', async () => {
    const pool = new ParseWorkerPool(logger(), 2, { startWaitMs: 0, idleMs: 60_000 });
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => pool.parse(missingChunk(n))));
      expect(answers.every((a) => !a.ok && a.code === 'ENOENT')).toBe(true);
      expect(new Set(answers.map((a) => a.threadName))).toEqual(new Set(['parse:1', 'parse:2']));
      expect(pool.waiting).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('drops the waiting chunks of a receiver that stops, and only those', async () => {
    const pool = new ParseWorkerPool(logger(), 1);
    try {
      const stopping = new AbortController();
      const theirs = Array.from({ length: 20 }, (_, n) => pool.parse(missingChunk(n), stopping.signal));
      const others = Array.from({ length: 20 }, (_, n) => pool.parse(missingChunk(100 + n)));
      stopping.abort();
      const settled = await Promise.allSettled(theirs);
      // The first one was already with the thread: it finishes; the rest never reach a thread.
      const dropped = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason.code);
      expect(dropped.length).toBeGreaterThanOrEqual(19);
      expect(new Set(dropped)).toEqual(new Set(['ABORT_ERR']));
      expect((await Promise.all(others)).every((a) => !a.ok && a.code === 'ENOENT')).toBe(true);
      await expect(pool.parse(missingChunk(0), stopping.signal)).rejects.toMatchObject({ code: 'ABORT_ERR' });
    } finally {
      await pool.close();
    }
  });

  it('keeps one thread for chunks that come one at a time, and starts a spare only when chunks wait', async () => {
    const pool = new ParseWorkerPool(logger(), 2, { startWaitMs: 0, idleMs: 60_000 });
    try {
      pool.start();
      for (let n = 0; n < 10; n += 1) expect((await pool.parse(missingChunk(n))).threadName).toBe('parse:1');
      expect(pool.running).toBe(1);
      const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => pool.parse(missingChunk(n))));
      expect(new Set(answers.map((a) => a.threadName))).toEqual(new Set(['parse:1', 'parse:2']));
      expect(pool.running).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('ends a spare thread that stays without work, and starts it again when chunks wait again', async () => {
    const pool = new ParseWorkerPool(logger(), 2, { startWaitMs: 0, idleMs: 200 });
    try {
      const first = await Promise.all(Array.from({ length: 50 }, (_, n) => pool.parse(missingChunk(n))));
      expect(new Set(first.map((a) => a.threadName))).toEqual(new Set(['parse:1', 'parse:2']));
      await expect.poll(() => pool.running, { timeout: 10_000 }).toBe(1);
      const again = await Promise.all(Array.from({ length: 50 }, (_, n) => pool.parse(missingChunk(n))));
      expect(again.every((a) => !a.ok && a.code === 'ENOENT')).toBe(true);
      expect(new Set(again.map((a) => a.threadName))).toEqual(new Set(['parse:1', 'parse:2']));
    } finally {
      await pool.close();
    }
  });

  it('starts the threads a big file will need when told (warm), and ends a warmed spare that gets no work', async () => {
    // A spare would otherwise wait for a chunk to wait a whole minute here.
    const pool = new ParseWorkerPool(logger(), 2, { startWaitMs: 60_000, idleMs: 300 });
    try {
      pool.start();
      expect(pool.running).toBe(1);
      pool.warm(2);
      expect(pool.running).toBe(2);
      // Both threads take chunks at once, without the spare's start wait.
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => pool.parse(missingChunk(n))));
      expect(new Set(answers.map((a) => a.threadName))).toEqual(new Set(['parse:1', 'parse:2']));
      await expect.poll(() => pool.running, { timeout: 10_000 }).toBe(1);
      pool.warm(2);
      expect(pool.running).toBe(2);
      await expect.poll(() => pool.running, { timeout: 10_000 }).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('with an inline runner, handles a chunk of a few rows on the calling thread, starts a thread only for more, and ends every idle thread', async () => {
    const pool = new ParseWorkerPool(logger(), 2, { startWaitMs: 0, idleMs: 300 }, async () => (await import('../threads/parse-thread-root.js')).createChunkRunner());
    try {
      pool.start();
      expect(pool.running).toBe(0);
      expect(await pool.parse({ ...missingChunk(1), fileSize: INLINE_CHUNK_BYTES })).toMatchObject({ ok: false, code: 'ENOENT', threadName: 'main' });
      expect(pool.running).toBe(0);
      expect(await pool.parse({ ...missingChunk(2), fileSize: INLINE_CHUNK_BYTES + 1 })).toMatchObject({ ok: false, code: 'ENOENT', threadName: 'parse:1' });
      // A part of a split file is small by where it ends; a long line's skip always goes to a thread.
      expect((await pool.parse({ ...missingChunk(3), fileSize: 10 * INLINE_CHUNK_BYTES, offset: 100, end: 100 + INLINE_CHUNK_BYTES })).threadName).toBe('main');
      expect((await pool.parse({ ...missingChunk(4), fileSize: 10, skipTo: 5 })).threadName).toBe('parse:1');
      expect(pool.running).toBe(1);
      // The first thread, too, ends when idle; a stopped receiver's small chunk is not read.
      await waitFor(() => pool.running === 0, 5000, 'the idle thread to end');
      const stopped = new AbortController();
      stopped.abort();
      await expect(pool.parse({ ...missingChunk(5), fileSize: 10 }, stopped.signal)).rejects.toMatchObject({ code: 'ABORT_ERR' });
    } finally {
      await pool.close();
    }
    await expect(pool.parse({ ...missingChunk(6), fileSize: 10 })).rejects.toThrow(/closed/);
  });

  it('reads a chunk on the calling thread no further than the size the file was looked at with', async () => {
    const dir = tempDirectory();
    const file = `${dir}/press.csv`;
    // The file grew to ~40 KiB since it was looked at with 1,000 bytes.
    fs.writeFileSync(file, `time,part\n${Array.from({ length: 2000 }, (_, i) => `2026-01-05 06:00:00,${i}`).join('\n')}\n`);
    const storeFile = `${dir}/agent.db`;
    new AgentStore(storeFile).close();
    const pool = new ParseWorkerPool(logger(), 1, { startWaitMs: 0, idleMs: 60_000 }, async () => (await import('../threads/parse-thread-root.js')).createChunkRunner());
    try {
      const chunk = missingChunk(1);
      const answer = await pool.parse({ ...chunk, path: file, fileSize: 1000, chunkBytes: 128 * 1024, plan: { ...chunk.plan, storeFile } });
      expect(answer).toMatchObject({ ok: true, threadName: 'main' });
      if (!answer.ok) return;
      expect(answer.chunkBytes).toBe(1000);
      expect(answer.consumedBytes).toBeLessThanOrEqual(1000);
      expect(answer.rows).toBeGreaterThan(10);
      expect(pool.running).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
