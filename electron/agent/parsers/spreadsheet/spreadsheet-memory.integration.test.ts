import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { createSpreadsheetParser } from './spreadsheet-parser.js';

const MiB = 1024 * 1024;
// 64 MiB keeps the test near 10 s on a small CI machine (the parser reads ~10–20 MiB/s with time
// stamps); TRIBUTARY_BIG_CSV_MIB=200 runs the full-size check by hand.
const FILE_BYTES = Number(process.env.TRIBUTARY_BIG_CSV_MIB ?? 64) * MiB;
const CHUNK_BYTES = 4 * MiB;

/** A real collection, so that the heap measured is what is retained, not garbage not yet swept. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('spreadsheet parser: large files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-spreadsheet-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`streams a ${FILE_BYTES / MiB} MiB file in ${CHUNK_BYTES / MiB} MiB chunks with bounded memory`, () => {
    const path = join(dir, 'big.csv');
    const fd = openSync(path, 'w');
    writeSync(fd, 'time,machine,temperature,state,note\n');
    // Rows of different lengths, some quoted with embedded newlines, so chunk ends fall everywhere.
    const block: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      block.push(i % 97 === 0 ? `2026-01-05 06:${String(i % 60).padStart(2, '0')}:00,Press_${i % 7},${(i * 0.25).toFixed(2)},RUN,"multi\nline, ${i}"\n` : `2026-01-05 06:00:00,Press_${i % 7},${i},IDLE,ok\n`);
    }
    const blockBytes = Buffer.from(block.join(''));
    const blockRows = block.length;
    let written = 0;
    let expectedRows = 0;
    while (written < FILE_BYTES) {
      writeSync(fd, blockBytes);
      written += blockBytes.length;
      expectedRows += blockRows;
    }
    closeSync(fd);

    const parser = createSpreadsheetParser(
      SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', options: { counter: true, parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }),
    );
    collectGarbage();
    const before = process.memoryUsage();
    let peakHeap = 0;
    let peakArrayBuffers = 0;
    const chunk = Buffer.alloc(CHUNK_BYTES);
    const input = openSync(path, 'r');
    let offset = 0;
    let state = parser.initialState();
    let rows = 0;
    let lastCounter = 0;
    for (;;) {
      const length = readSync(input, chunk, 0, CHUNK_BYTES, offset);
      const final = length < CHUNK_BYTES;
      const result = parser.parseChunk(chunk.subarray(0, length), state, final);
      expect(result.badLines).toEqual([]);
      rows += result.rows.length;
      if (result.rows.length > 0) lastCounter = result.rows[result.rows.length - 1]!.fieldvalues.counter as number;
      offset += result.consumedBytes;
      state = result.state;
      // Measure while this chunk's rows are still alive: that is the real peak a caller holds.
      collectGarbage();
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed - before.heapUsed);
      peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers - before.arrayBuffers);
      if (final) break;
    }
    closeSync(input);

    expect(offset).toBe(written + Buffer.byteLength('time,machine,temperature,state,note\n'));
    expect(rows).toBe(expectedRows);
    expect(lastCounter).toBe(expectedRows);
    // One chunk's rows (~100k small objects) at a time; whole-file buffering or a leak would be
    // several times the file size (measured: ~40 MiB whatever the file size).
    expect(peakHeap).toBeLessThan(96 * MiB);
    expect(peakArrayBuffers).toBeLessThan(3 * CHUNK_BYTES);
  }, 60_000);
});
