import { BSON } from 'bson';
import { describe, expect, it } from 'vitest';
import { recordIdOf } from '../../receivers/file-source/record-ids.js';
import { RowDocumentWriter } from './row-documents.js';

describe('RowDocumentWriter', () => {
  it('writes the record id of any line below 16^12 as recordIdOf does, the high digits included', () => {
    const prefix = '0123456789abcdef0123';
    const lines = [0, 1, 15, 16, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, 2 ** 32 + 5, 0xabcdef123456, 2 ** 48 - 1];
    const writer = new RowDocumentWriter('Press_1', 'cycle', ['part'], prefix);
    const ends = lines.map((line, i) => {
      writer.begin(writer.fixedBytes, 1_767_225_600_000 + i, 1_767_225_700_000, line);
      writer.value(0, i);
      return writer.end();
    });
    const documents = ends.map((end, i) => BSON.deserialize(writer.bytes.subarray(i === 0 ? 0 : ends[i - 1], end)));
    expect(documents.map((d) => d.record_id)).toEqual(lines.map((line) => recordIdOf(prefix, line)));
    expect(documents[6]).toEqual({
      asset: 'Press_1',
      stream_type: 'cycle',
      timestamp: new Date(1_767_225_600_006),
      capturetime: new Date(1_767_225_700_000),
      record_id: recordIdOf(prefix, 2 ** 24 + 1),
      fieldvalues: { part: 6 },
    });
  });
});
