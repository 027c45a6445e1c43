/**
 * Text encodings of spreadsheet files, by their Python codec names (the product family passed
 * `file_encoding` to Python), with the aliases Python accepts. Each names the iconv-lite codec that
 * decodes it in the agent and how the parser finds record ends in its bytes. Pure data; the agent
 * does the decoding (electron/agent/parsers/spreadsheet/text-encoding.ts).
 */

/**
 * How record ends, quotes and separators are found in the bytes:
 * - `bytes`: ASCII bytes are always ASCII characters (UTF-8, single-byte code pages, EUC-JP);
 * - `shift_jis`, `dbcs`: double-byte code pages whose second byte may be an ASCII letter or sign —
 *   a lead byte (Shift_JIS 0x81–0x9F and 0xE0–0xFC; GBK, Big5, UHC 0x81–0xFE) takes the next byte;
 * - `utf_16_le`, `utf_16_be`, `utf_16`: two-byte units (`utf_16` without a byte order mark: little-endian).
 */
export type EncodingScan = 'bytes' | 'shift_jis' | 'dbcs' | 'utf_16' | 'utf_16_le' | 'utf_16_be';

export interface EncodingInfo {
  /** Python's canonical codec name. */
  codec: string;
  /** Other names Python accepts for it (normalized: lower case, "_" for "-" and " "). */
  aliases: readonly string[];
  /** The iconv-lite codec (utf8, latin1 and utf16le are decoded by Node itself). */
  iconv: string;
  scan: EncodingScan;
}

const entry = (codec: string, iconv: string, scan: EncodingScan, aliases: string[] = []): EncodingInfo => ({ codec, iconv, scan, aliases });

/** Every encoding a spreadsheet parser accepts; `file_encoding` may use any name or alias. */
export const ENCODINGS: readonly EncodingInfo[] = [
  entry('utf_8', 'utf8', 'bytes', ['utf8', 'u8', 'utf', 'utf8_ucs2', 'utf8_ucs4', 'cp65001']),
  entry('utf_8_sig', 'utf8', 'bytes', ['utf8_sig']),
  entry('utf_16', 'utf16le', 'utf_16', ['utf16', 'u16']),
  entry('utf_16_le', 'utf16le', 'utf_16_le', ['utf_16le', 'utf16le', 'unicodelittleunmarked']),
  entry('utf_16_be', 'utf16be', 'utf_16_be', ['utf_16be', 'utf16be', 'unicodebigunmarked']),
  entry('ascii', 'latin1', 'bytes', ['us_ascii', '646', 'us']),
  entry('latin_1', 'latin1', 'bytes', ['latin1', 'latin', 'l1', 'iso8859_1', 'iso_8859_1', '8859', 'cp819', 'iso_ir_100', 'csisolatin1']),
  entry('iso8859_2', 'iso-8859-2', 'bytes', ['iso_8859_2', 'latin2', 'l2']),
  entry('iso8859_15', 'iso-8859-15', 'bytes', ['iso_8859_15', 'latin9', 'l9']),
  entry('cp1250', 'windows-1250', 'bytes', ['windows_1250', '1250']),
  entry('cp1251', 'windows-1251', 'bytes', ['windows_1251', '1251']),
  entry('cp1252', 'windows-1252', 'bytes', ['windows_1252', '1252']),
  entry('cp1253', 'windows-1253', 'bytes', ['windows_1253', '1253']),
  entry('cp1254', 'windows-1254', 'bytes', ['windows_1254', '1254']),
  entry('cp1257', 'windows-1257', 'bytes', ['windows_1257', '1257']),
  entry('cp437', 'cp437', 'bytes', ['437', 'ibm437']),
  entry('cp850', 'cp850', 'bytes', ['850', 'ibm850']),
  entry('cp852', 'cp852', 'bytes', ['852', 'ibm852']),
  entry('koi8_r', 'koi8-r', 'bytes', []),
  entry('euc_jp', 'euc-jp', 'bytes', ['eucjp', 'ujis', 'u_jis']),
  entry('shift_jis', 'shift_jis', 'shift_jis', ['shiftjis', 'sjis', 's_jis', 'csshiftjis']),
  entry('cp932', 'cp932', 'shift_jis', ['932', 'ms932', 'mskanji', 'ms_kanji', 'windows_31j']),
  entry('gbk', 'gbk', 'dbcs', ['936', 'cp936', 'ms936']),
  entry('gb2312', 'gb2312', 'dbcs', ['chinese', 'euc_cn', 'euccn', 'eucgb2312_cn', 'gb2312_1980', 'gb2312_80']),
  entry('gb18030', 'gb18030', 'dbcs', ['gb18030_2000']),
  entry('big5', 'big5', 'dbcs', ['big5_tw', 'csbig5']),
  entry('cp950', 'cp950', 'dbcs', ['950', 'ms950']),
  entry('euc_kr', 'euc-kr', 'dbcs', ['euckr', 'korean', 'ksc5601', 'ks_c_5601', 'ks_c_5601_1987', 'ksx1001', 'ks_x_1001']),
  entry('cp949', 'cp949', 'dbcs', ['949', 'ms949', 'uhc']),
];

/** A codec name as Python compares it: lower case, spaces and hyphens as underscores. */
export function normalizeCodecName(name: string): string {
  return name.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

const BY_NAME = new Map<string, EncodingInfo>(ENCODINGS.flatMap((info) => [info.codec, ...info.aliases].map((name) => [name, info] as const)));

/** The encoding a name (or alias, any case, "-" or "_") stands for; undefined when unknown. */
export function lookupEncoding(name: string): EncodingInfo | undefined {
  return BY_NAME.get(normalizeCodecName(name));
}

/** The canonical names, for messages and documentation. */
export function supportedEncodingNames(): string[] {
  return ENCODINGS.map((info) => info.codec);
}
