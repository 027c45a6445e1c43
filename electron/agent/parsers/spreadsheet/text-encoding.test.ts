import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ENCODINGS, lookupEncoding } from '../../../../shared/config/encodings.js';
import { validateConfiguration } from '../../../../shared/config/validate.js';
import { specExampleConfiguration } from '../../../../shared/testing/config-fixtures.js';
import { parserWith, whole } from '../../../testing/spreadsheet-feed.js';

/** Text in the repertoire of each code page. */
function sampleFor(codec: string): string {
  if (/^(shift_jis|cp932|euc_jp)$/.test(codec)) return '表示ポ温度ｶﾅ';
  if (/^(gbk|gb2312|gb18030)$/.test(codec)) return '温度压力';
  if (/^(big5|cp950)$/.test(codec)) return '溫度壓力';
  if (/^(euc_kr|cp949)$/.test(codec)) return '온도압력';
  if (/^(cp1251|koi8_r)$/.test(codec)) return 'Температура';
  if (codec === 'cp1253') return 'Θερμοκρασία';
  if (codec === 'cp1254') return 'Sıcaklık Ğüş';
  if (codec === 'cp1257') return 'Temperatūra ąčę';
  if (/^(iso8859_2|cp1250|cp852)$/.test(codec)) return 'Łódź Müller';
  if (codec === 'ascii') return 'plain text';
  if (/^utf/.test(codec)) return 'Müller 温度 😀';
  return 'Müller Straße ÄÖÜ';
}

describe('file encodings', () => {
  it.each(ENCODINGS.map((info) => [info.codec, info.iconv] as const))('%s: decodes a file written in it (iconv-lite %s)', (codec, iconvName) => {
    expect(iconv.encodingExists(iconvName)).toBe(true);
    const text = sampleFor(codec);
    const file = iconv.encode(`name,value\n${text},1.5\n"${text}, quoted",2\n`, iconvName === 'utf16le' ? 'utf16le' : iconvName, { addBOM: false });
    const { rows, offset } = whole(parserWith(codec), file);
    expect(rows.map((r) => r.fieldvalues)).toEqual([{ name: text, value: 1.5 }, { name: `${text}, quoted`, value: 2 }]);
    expect(offset).toBe(file.length);
  });

  it('accepts the Python names and aliases plants write', () => {
    for (const name of ['cp1252', 'windows-1252', 'Windows-1252', 'latin-1', 'ISO-8859-15', 'iso8859_15', 'utf-8-sig', 'UTF8', 'utf_16_le', 'utf-16-be', 'sjis', 'Shift_JIS', 'cp850', 'GBK', 'big5']) {
      const file = iconv.encode('a\nx\n', lookupEncoding(name)!.iconv);
      expect(whole(parserWith(name), file).rows.map((r) => r.fieldvalues), name).toEqual([{ a: 'x' }]);
    }
  });

  it('lets a byte order mark win over file_encoding', () => {
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name\nMüller\n')]);
    expect(whole(parserWith('cp1252'), utf8).rows[0]!.fieldvalues).toEqual({ name: 'Müller' });
    const utf16be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('name\n温度\n', 'utf16le').swap16()]);
    expect(whole(parserWith('shift_jis'), utf16be).rows[0]!.fieldvalues).toEqual({ name: '温度' });
    const sig = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name\nä\n')]);
    expect(whole(parserWith('utf-8-sig'), sig).rows[0]!.fieldvalues).toEqual({ name: 'ä' });
    expect(whole(parserWith('utf-8-sig'), Buffer.from('name\nä\n')).rows[0]!.fieldvalues).toEqual({ name: 'ä' });
  });

  it('keeps a Shift_JIS second byte that equals the separator inside its character', () => {
    // "ポ" is 0x83 0x7C: its second byte is "|". With a quote after it, a byte-wise scan would open a
    // quoted cell there and swallow the next line.
    const file = iconv.encode('h1|h2\nx|ポ"a\ny|表\n', 'shift_jis');
    expect(whole(parserWith('shift_jis', { separator: '|' }), file).rows.map((r) => r.fieldvalues)).toEqual([
      { h1: 'x', h2: 'ポ"a' },
      { h1: 'y', h2: '表' },
    ]);
  });

  it('refuses an unknown encoding name with the supported ones listed (validation and parser)', () => {
    const doc = specExampleConfiguration() as any;
    doc.data_receiver[0].parsers[0].file_encoding = 'cp1252x';
    const violation = validateConfiguration(doc).violations.find((v) => v.json_path.join('.') === 'data_receiver.0.parsers.0.file_encoding');
    expect(violation?.level).toBe('error');
    expect(violation?.description).toMatch(/"cp1252x" is not a supported encoding\. Did you mean "cp1252"\?.*Supported.*utf_8, .*shift_jis/);
    expect(() => parserWith('klingon').parseChunk(Buffer.from('a\n1\n'), parserWith('klingon').initialState(), true)).toThrow(/not a supported encoding\. Supported: utf_8/);
  });

  it('reads states persisted by earlier versions (utf-8, utf-16le, latin1)', () => {
    const parser = parserWith('utf-8');
    const state = { header: ['a'], rowsSeen: 1, linesSeen: 1, counter: 0, encoding: 'latin1' };
    expect(parser.parseChunk(Buffer.from([0x4d, 0xfc, 0x0a]), state, true).rows[0]!.fieldvalues).toEqual({ a: 'Mü' });
    const utf16 = { ...state, encoding: 'utf-16le' };
    expect(parser.parseChunk(Buffer.from('x\n', 'utf16le'), utf16, true).rows[0]!.fieldvalues).toEqual({ a: 'x' });
  });
});
