import fs from 'node:fs';
import { parseTimestampToMicros } from '../../../shared/api/envelope.js';

const CHUNK = 64 * 1024;

/** Reads a file's complete lines from the end backwards, newest first, without loading it whole. */
function* linesBackwards(filePath: string): Generator<string> {
  let fd: number;
  try {
    fd = fs.openSync(filePath, 'r');
  } catch {
    return;
  }
  try {
    let position = fs.fstatSync(fd).size;
    let carry: Buffer = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      fs.readSync(fd, chunk, 0, length, position);
      let buffer = Buffer.concat([chunk, carry]);
      let end = buffer.length;
      for (let i = buffer.length - 1; i >= 0; i -= 1) {
        if (buffer[i] === 0x0a) {
          if (i + 1 < end) yield buffer.toString('utf8', i + 1, end);
          end = i;
        }
      }
      carry = buffer.subarray(0, end);
      buffer = Buffer.alloc(0);
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Epoch microseconds of a log line's leading timestamp, or undefined for a foreign line. */
export function lineTimestamp(line: string): bigint | undefined {
  const bar = line.indexOf(' | ');
  return bar > 0 ? parseTimestampToMicros(line.slice(0, bar)) : undefined;
}

/**
 * The last `lines` lines over the given files (newest file first), oldest line first in the result.
 * With `sinceMicros`, only lines stamped strictly after it.
 */
export function readLastLines(files: readonly string[], lines: number, sinceMicros?: bigint): string[] {
  const out: string[] = [];
  outer: for (const file of files) {
    for (const line of linesBackwards(file)) {
      if (sinceMicros !== undefined) {
        const stamp = lineTimestamp(line);
        if (stamp !== undefined && stamp <= sinceMicros) break outer;
      }
      out.push(line);
      if (out.length >= lines) break outer;
    }
  }
  return out.reverse();
}
