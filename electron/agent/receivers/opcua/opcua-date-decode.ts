import { createRequire } from 'node:module';

/**
 * A faster decoding of OPC UA DateTime values for node-opcua (issue 40 point 2). Every value of a
 * subscription carries two of them (source and server time); node-opcua turns each 64-bit count of
 * 100 ns since 1601 into a Date with the `long` library: five Long objects and a 64-bit division
 * each, 10 % of everything the agent allocated at 20,000 tags a second (docs/performance.md). The
 * same numbers come exactly from two 32-bit halves in doubles:
 *
 *   value = hi·2³² + lo, and 2³² = 429,496·10,000 + 7,296, so
 *   value / 10,000 = hi·429,496 + (hi·7,296 + lo) / 10,000,
 *
 * where every product stays below 2⁵³. Installed only when node-opcua's own function is where it
 * is expected and gives the same answer as this one for a set of edge and random values; otherwise
 * node-opcua's stays (correct, only slower).
 */

type DecodeDate = (high: number, low: number, picoseconds?: number, value?: unknown) => [Date, number];

const TICKS_PER_MS = 10_000;
/** 2³² = TWO32_PER_MS · 10,000 + TWO32_REST. */
const TWO32_PER_MS = 429_496;
const TWO32_REST = 7_296;
/** Picoseconds in one 100 ns tick. */
const PICO_PER_TICK = 100_000;

/** node-opcua's (high, low, picoseconds) → [Date, picoseconds], from ms between 1601 and 1970. */
export function makeDecodeDate(offsetMs: number): DecodeDate {
  return (high, low, picoseconds = 0) => {
    const hi = high >>> 0;
    const rest = hi * TWO32_REST + (low >>> 0);
    const restMs = Math.floor(rest / TICKS_PER_MS);
    const ms = hi * TWO32_PER_MS + restMs - offsetMs;
    return [new Date(ms), (rest - restMs * TICKS_PER_MS) * PICO_PER_TICK + (picoseconds || 0)];
  };
}

const EDGES = [0, 1, 9_999, 10_000, 0x7fffffff, 0x80000000, 0xffffffff, -1, -2_147_483_648];

/** Whether `fast` answers as `original` does (Dates by time, and the picoseconds). */
export function sameDecoding(original: DecodeDate, fast: DecodeDate, samples = 2_000): boolean {
  const pairs: [number, number][] = [];
  for (const hi of EDGES) for (const lo of EDGES) pairs.push([hi, lo]);
  // Around now: 1601 + ~425 years of 100 ns ticks.
  const now = (Date.now() + 11_644_473_600_000) * TICKS_PER_MS;
  pairs.push([Math.floor(now / 2 ** 32), now % 2 ** 32]);
  for (let i = 0; i < samples; i += 1) pairs.push([Math.floor(Math.random() * 2 ** 32) | 0, Math.floor(Math.random() * 2 ** 32) | 0]);
  return pairs.every(([hi, lo]) => {
    const [a, pa] = original(hi, lo, 0);
    const [b, pb] = fast(hi, lo, 0);
    return Object.is(a.getTime(), b.getTime()) && pa === pb;
  });
}

let installed: boolean | undefined;

/** Puts the fast decoding in node-opcua's place once per process; answers whether it is in place. */
export function installFastDateDecoding(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  try {
    const require = createRequire(import.meta.url);
    // The module object node-opcua's own decoders call through (CommonJS: looked up on every call).
    const dateTime = require('node-opcua-date-time/dist/date_time.js') as {
      bn_hundredNanoSecondFrom1601ToDate?: DecodeDate;
      offsetFactor1601?: [number, number];
    };
    const original = dateTime.bn_hundredNanoSecondFrom1601ToDate;
    const [offset, factor] = dateTime.offsetFactor1601 ?? [];
    if (typeof original !== 'function' || factor !== TICKS_PER_MS || typeof offset !== 'number') return false;
    const fast = makeDecodeDate(offset);
    if (!sameDecoding(original, fast)) return false;
    dateTime.bn_hundredNanoSecondFrom1601ToDate = fast;
    installed = true;
  } catch {
    // Another node-opcua layout: its own decoding stays.
  }
  return installed;
}
