import { describe, expect, it } from 'vitest';
import { readStrictJson } from './json-syntax.js';

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

describe('readStrictJson', () => {
  it('marks a missing comma at the end of the value before it, not on the next line', () => {
    const text = '{\n  "poll_interval": 2\n  "delete_completed": false\n}';
    const [error] = readStrictJson(text).errors;
    expect(error).toEqual({ offset: text.indexOf('2'), length: 1, words: 'a comma is expected after this value' });
    expect(lineOf(text, error!.offset)).toBe(2);
  });

  it('marks a trailing comma itself', () => {
    const text = '{\n  "a": 1,\n}';
    const [error] = readStrictJson(text).errors;
    expect(error).toMatchObject({ offset: text.indexOf(','), words: 'a comma before a closing bracket is not allowed' });
  });

  it('reads valid JSON without errors and refuses comments', () => {
    expect(readStrictJson('{"a": [1, 2]}')).toEqual({ document: { a: [1, 2] }, errors: [] });
    expect(readStrictJson('{"a": 1 // note\n}').errors[0]?.words).toBe('comments are not allowed');
  });
});
