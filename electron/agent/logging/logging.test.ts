import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { SystemClock } from '../time/clock.js';
import { LogFile, PENDING_LIMIT_BYTES } from './log-file.js';
import { readLastLines } from './log-reader.js';
import { Logger, Redactor } from './logger.js';

function setup(maxBytes = 1000, keep = 3) {
  const dir = tempDirectory();
  const file = new LogFile(path.join(dir, 'logs', 'agent_core.log'), { maxBytes, keep });
  const redactor = new Redactor();
  const logger = new Logger(file, redactor, new SystemClock(), 'receiver:plant', 'worker-1');
  return { dir, file, redactor, logger };
}

describe('log files', () => {
  it('writes timestamp | thread | component | LEVEL | message lines, one per call', () => {
    const { file, logger } = setup(1_000_000); // no rotation here: a stack trace can be long
    logger.info('hello');
    logger.warn('two\nlines');
    logger.error('failed', new Error('boom'));
    const lines = fs.readFileSync(file.filePath, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6} \| worker-1 \| receiver:plant \| INFO \| hello$/);
    expect(lines[1]).toMatch(/\| WARNING \| two\\nlines$/);
    expect(lines[2]).toMatch(/\| ERROR \| failed: Error: boom/);
  });

  it('writes ESC, \\x01 and other control characters of names escaped, never raw (issue 39)', () => {
    const { file, logger } = setup(1_000_000);
    logger.warn('Cannot read "evil\u001b[2J\u0001name\r.csv" in C:\\drop\u2028next\ttabbed');
    const log = fs.readFileSync(file.filePath, 'utf8');
    expect(log).toContain('Cannot read "evil\\x1b[2J\\x01name\\x0d.csv" in C:\\drop\\u2028next\ttabbed');
    expect(log.trimEnd()).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u2028]/);
  });

  it('rotates by size and keeps the configured number of generations', () => {
    const { file, logger } = setup(1000, 2);
    for (let i = 0; i < 100; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    const generations = file.generations();
    expect(generations.map((g) => path.basename(g))).toEqual(['agent_core.log', 'agent_core.log.1', 'agent_core.log.2']);
    for (const g of generations) expect(fs.statSync(g).size).toBeLessThanOrEqual(1000);
    expect(fs.existsSync(`${file.filePath}.3`)).toBe(false);
  });

  it('reads the newest lines across rotated files, oldest first, and filters by time', () => {
    const { file, logger } = setup(1000, 5);
    for (let i = 0; i < 60; i += 1) logger.info(`line ${i}`);
    const last25 = readLastLines(file.generations(), 25);
    expect(last25.map((l) => l.split(' | ')[4])).toEqual(Array.from({ length: 25 }, (_, i) => `line ${35 + i}`));
    const since = last25[19]!.slice(0, 26);
    expect(readLastLines(file.generations(), 1000, BigInt(Date.parse(`${since.slice(0, 19).replace(' ', 'T')}Z`)) * 1000n + BigInt(since.slice(20)))).toHaveLength(5);
  });

  it('redacts secrets before they reach the file', () => {
    const { file, logger, redactor } = setup();
    redactor.setSecrets(['s3cret-key', 'pw']);
    logger.info('connecting with s3cret-key and pw');
    const text = fs.readFileSync(file.filePath, 'utf8');
    expect(text).not.toContain('s3cret-key');
    expect(text).toContain('connecting with ******** and pw'); // too short to redact safely
  });
});

describe('log files that cannot be written', () => {
  function failingSetup(maxBytes = 1_000_000, keep = 3) {
    const dir = tempDirectory();
    const events: string[] = [];
    const recovered: { kept: number; dropped: number }[] = [];
    const file = new LogFile(path.join(dir, 'logs', 'agent_core.log'), {
      maxBytes,
      keep,
      events: { failed: (cause, during) => events.push(`${during}:${(cause as NodeJS.ErrnoException).code}`), recovered: (info) => recovered.push(info) },
    });
    const logger = new Logger(file, new Redactor(), new SystemClock(), 'agent');
    return { dir, file, logger, events, recovered };
  }

  it('never throws into the caller, keeps the lines in memory and writes them in order once it can', async () => {
    const { dir, file, logger, events, recovered } = failingSetup();
    logger.info('before');
    // The log folder disappears and a file takes its name: every write fails (ENOENT/ENOTDIR).
    fs.rmSync(path.join(dir, 'logs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'logs'), 'not a folder');
    file.close();
    expect(() => {
      for (let i = 0; i < 5; i += 1) logger.info(`while broken ${i}`);
    }).not.toThrow();
    expect(events.length).toBeGreaterThan(0);
    expect(file.backlog()).toEqual({ kept: 5, dropped: 0 });
    fs.rmSync(path.join(dir, 'logs'));
    logger.info('after');
    await Promise.resolve();
    const lines = fs.readFileSync(file.filePath, 'utf8').trimEnd().split('\n').map((l) => l.split(' | ')[4]);
    expect(lines).toEqual(['while broken 0', 'while broken 1', 'while broken 2', 'while broken 3', 'while broken 4', 'after']);
    expect(recovered).toEqual([{ kept: 5, dropped: 0 }]);
  });

  it('drops lines beyond the memory limit, counts them and says so when writing works again', async () => {
    const { dir, file, logger, recovered } = failingSetup();
    file.close();
    fs.rmSync(path.join(dir, 'logs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'logs'), 'not a folder');
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 400; i += 1) logger.info(line);
    const { kept, dropped } = file.backlog();
    expect(kept + dropped).toBe(400);
    expect(dropped).toBeGreaterThan(0);
    fs.rmSync(path.join(dir, 'logs'));
    expect(file.retry()).toBe(true);
    await Promise.resolve();
    expect(recovered).toEqual([{ kept, dropped }]);
    expect(fs.readFileSync(file.filePath, 'utf8').trimEnd().split('\n')).toHaveLength(kept);
    expect(fs.statSync(file.filePath).size).toBeLessThanOrEqual(PENDING_LIMIT_BYTES);
  });

  it('keeps writing to the current file when rotation fails', () => {
    const { file, logger, events } = failingSetup(1000, 2);
    // Non-empty folders where the rotated copies should go: the renames fail (ENOTEMPTY).
    for (const generation of ['.1', '.2']) {
      fs.mkdirSync(`${file.filePath}${generation}`);
      fs.writeFileSync(path.join(`${file.filePath}${generation}`, 'keep'), 'x');
    }
    expect(() => {
      for (let i = 0; i < 50; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    }).not.toThrow();
    expect(events.filter((e) => e.startsWith('rotate:'))).toHaveLength(1);
    const text = fs.readFileSync(file.filePath, 'utf8');
    expect(text.split('\n').filter(Boolean)).toHaveLength(50);
    expect(fs.statSync(file.filePath).size).toBeGreaterThan(1000);
  });
});
