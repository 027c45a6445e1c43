import { describe, expect, it } from 'vitest';
import { rangeOfJsonPath } from './json-path-range.js';

const text = JSON.stringify({ data_receiver: [{ data_receiver_name: 'files', poll_interval: 'fast', streams: [] }], data_transmit: [] }, null, 2);
const marked = (path: (string | number)[]) => {
  const range = rangeOfJsonPath(text, path);
  return range && { text: text.slice(range.offset, range.offset + range.length), exact: range.exact };
};

describe('rangeOfJsonPath', () => {
  it('marks the exact value a violation points at', () => {
    expect(marked(['data_receiver', 0, 'poll_interval'])).toEqual({ text: '"fast"', exact: true });
    expect(marked(['data_receiver', 0, 'streams'])).toEqual({ text: '[]', exact: true });
  });

  it('marks the key of a multi-line object instead of the whole object', () => {
    expect(marked(['data_receiver'])).toEqual({ text: '"data_receiver"', exact: true });
  });

  it('marks the enclosing object when the field is missing', () => {
    const range = rangeOfJsonPath(text, ['data_receiver', 0, 'connections']);
    expect(range?.exact).toBe(false);
    expect(text.slice(range!.offset, range!.offset + range!.length)).toBe('{');
  });

  it('marks the root for an empty path and gives nothing for broken JSON', () => {
    expect(rangeOfJsonPath(text, [])?.offset).toBe(0);
    expect(rangeOfJsonPath('', ['x'])).toBeUndefined();
  });
});
