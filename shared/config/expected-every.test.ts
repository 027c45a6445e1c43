/** expected_every_seconds on a stream: how often its data should arrive (issue 38, decision 0045). */
import { describe, expect, it } from 'vitest';
import { configurationJsonSchema } from './schema.js';
import { validateConfiguration } from './validate.js';

const withStream = (extra: Record<string, unknown>) => ({
  data_receiver: [
    {
      data_receiver_name: 'line',
      protocol: 'localfile',
      connections: [{ root_path: '/data/line' }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'], ...extra }],
    },
  ],
  transforms: [],
  data_transmit: [],
});
const path = ['data_receiver', 0, 'streams', 0, 'expected_every_seconds'];

describe('expected_every_seconds', () => {
  it('takes a whole number of seconds from 1 to 30 days, and is optional', () => {
    for (const ok of [{}, { expected_every_seconds: 1 }, { expected_every_seconds: 900 }, { expected_every_seconds: 2_592_000 }])
      expect(validateConfiguration(withStream(ok)).violations.filter((v) => v.level === 'error')).toEqual([]);
  });

  it('refuses zero, fractions, text and more than 30 days at its json_path, in words', () => {
    const cases: [unknown, RegExp][] = [
      [0, /at least 1/],
      [-5, /at least 1/],
      [1.5, /whole number/],
      [2_592_001, /at most 2592000/],
      ['900', /number/],
    ];
    for (const [value, words] of cases) {
      const { violations } = validateConfiguration(withStream({ expected_every_seconds: value }));
      expect(violations, String(value)).toContainEqual(expect.objectContaining({ json_path: path, level: 'error', description: expect.stringMatching(words) }));
    }
  });

  it('is offered with its meaning on every kind of stream (completion and hover come from the schema)', () => {
    const text = JSON.stringify(configurationJsonSchema());
    const described = text.split('"expected_every_seconds":{').length - 1;
    // localfile, smb, sql, opcua and mqtt streams.
    expect(described).toBeGreaterThanOrEqual(4);
    expect(text).toContain('How often new data of this stream should arrive');
  });
});
