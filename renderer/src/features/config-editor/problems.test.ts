import { describe, expect, it } from 'vitest';
import { readDocument } from './document-text.js';
import { listProblems, receiverAt, receiverNames } from './problems.js';

const text = JSON.stringify({ data_receiver: [{ data_receiver_name: 'files', poll_interval: 0 }, { data_receiver_name: 'db', poll_interval: 'x' }], data_transmit: [] }, null, 2);

describe('listProblems', () => {
  it('lists problems in the order of the text, each with its line, whatever order validation gave', () => {
    const listed = listProblems(text, [], [
      { level: 'error', json_path: ['data_receiver', 1, 'poll_interval'], description: 'second' },
      { level: 'warning', json_path: ['data_transmit'], description: 'third' },
      { level: 'error', json_path: ['data_receiver', 0, 'poll_interval'], description: 'first' },
    ]);
    expect(listed.map((p) => [p.description, p.line])).toEqual([
      ['first', 5],
      ['second', 9],
      ['third', 12],
    ]);
  });

  it('lists syntax errors alone, on the line of the mistake', () => {
    const broken = '{\n  "a": 1\n  "b": 2\n}';
    const { syntax } = readDocument(broken);
    expect(listProblems(broken, syntax, [{ level: 'error', json_path: [], description: 'stale' }]).map((p) => [p.description, p.line])).toEqual([['JSON syntax: a comma is expected after this value.', 2]]);
  });
});

describe('receivers for the preview', () => {
  it('finds the receiver the cursor is in, and lists the names', () => {
    const document = JSON.parse(text);
    expect(receiverAt(text, text.indexOf('"db"'), document)).toBe('db');
    expect(receiverAt(text, text.indexOf('data_transmit'), document)).toBeUndefined();
    expect(receiverNames(document)).toEqual(['files', 'db']);
  });
});
