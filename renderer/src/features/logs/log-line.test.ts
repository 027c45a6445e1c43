import { describe, expect, it } from 'vitest';
import { matchesLogFilter, parseLogLine } from './log-line.js';

describe('parseLogLine', () => {
  it('splits the five fields and keeps separators inside the message', () => {
    const line = parseLogLine('2026-01-05 06:00:00.123456 | main | receiver:files | WARNING | bad line 7 | skipped');
    expect(line).toMatchObject({ timestamp: '2026-01-05 06:00:00.123456', thread: 'main', component: 'receiver:files', level: 'WARNING', message: 'bad line 7 | skipped' });
  });

  it('keeps an unstructured line whole as the message', () => {
    expect(parseLogLine('Traceback (most recent call last):').message).toBe('Traceback (most recent call last):');
  });
});

describe('matchesLogFilter', () => {
  const info = parseLogLine('2026-01-05 06:00:00.000001 | main | agent | INFO | started');
  const error = parseLogLine('2026-01-05 06:00:01.000001 | main | agent | ERROR | stopped');
  it('shows the chosen level and above', () => {
    const filter = { minimumLevel: 'WARNING', component: '', search: '' };
    expect(matchesLogFilter(info, filter)).toBe(false);
    expect(matchesLogFilter(error, filter)).toBe(true);
  });
  it('searches the whole line without regard to case', () => {
    expect(matchesLogFilter(info, { minimumLevel: '', component: 'agent', search: 'START' })).toBe(true);
  });
});
