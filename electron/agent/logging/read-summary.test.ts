import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { SystemClock } from '../time/clock.js';
import { LogFile } from './log-file.js';
import { Logger, Redactor } from './logger.js';
import { ReadSummary } from './read-summary.js';

function setup() {
  const file = new LogFile(path.join(tempDirectory(), 'logs', 'agent_core.log'), { maxBytes: 1_000_000, keep: 1 });
  const logger = new Logger(file, new Redactor(), new SystemClock(), 'receiver:files', 'parse:files');
  let now = 1_000_000;
  const summary = new ReadSummary('record', () => now, 60_000);
  const lines = () => (fs.existsSync(file.filePath) ? fs.readFileSync(file.filePath, 'utf8').trimEnd().split('\n').map((l) => l.split(' | ').slice(1).join(' | ')) : []);
  return { logger, summary, lines, advance: (ms: number) => (now += ms) };
}

describe('ReadSummary', () => {
  it('logs the first read of a file at once, then one line per minute for a file read every second', () => {
    const { logger, summary, lines, advance } = setup();
    summary.note('/drop/press1.csv', 3, logger);
    expect(lines()).toEqual(['parse:files | receiver:files | INFO | /drop/press1.csv: 3 records read']);
    for (let second = 1; second < 60; second += 1) {
      advance(1000);
      summary.note('/drop/press1.csv', 1, logger);
      summary.flush(false);
    }
    // 60 polls in the minute made no line of their own…
    expect(lines()).toHaveLength(1);
    advance(1000);
    summary.note('/drop/press1.csv', 1, logger);
    // …and the minute's reads are one line.
    expect(lines()).toEqual([
      'parse:files | receiver:files | INFO | /drop/press1.csv: 3 records read',
      'parse:files | receiver:files | INFO | /drop/press1.csv: 60 records read in the last 60 s (60 reads, at most 1 in one)',
    ]);
  });

  it('says the rest when the reader stops, and forgets a file that went quiet', () => {
    const { logger, summary, lines, advance } = setup();
    summary.note('oven.csv', 1, logger);
    advance(5000);
    summary.note('oven.csv', 1, logger);
    summary.flush(true);
    expect(lines().at(-1)).toBe('parse:files | receiver:files | INFO | oven.csv: 1 record read in the last 5 s (1 read)');
    // Quiet for a window: the next read is news again and is logged at once.
    summary.note('oven.csv', 2, logger);
    advance(61_000);
    summary.flush(false);
    advance(1000);
    summary.note('oven.csv', 4, logger);
    expect(lines().at(-1)).toBe('parse:files | receiver:files | INFO | oven.csv: 4 records read');
  });
});
