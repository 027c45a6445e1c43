/**
 * The encoding of an XML file, as the XML specification finds it: a byte order mark, else the
 * encoding named in the declaration (<?xml version="1.0" encoding="windows-1252"?>), else UTF-8.
 */
import iconv from 'iconv-lite';

export interface XmlDecoder {
  encoding: string;
  /** Bytes of the mark to skip. */
  skip: number;
  write(bytes: Buffer): string;
  end(): string;
}

export function xmlDecoderFor(head: Buffer): XmlDecoder | string {
  let encoding = 'utf-8';
  let skip = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) skip = 3;
  else if (head[0] === 0xff && head[1] === 0xfe) [encoding, skip] = ['utf-16le', 2];
  else if (head[0] === 0xfe && head[1] === 0xff) [encoding, skip] = ['utf-16be', 2];
  else if (head[0] === 0x3c && head[1] === 0x00) encoding = 'utf-16le';
  else if (head[0] === 0x00 && head[1] === 0x3c) encoding = 'utf-16be';
  else {
    const declared = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head.subarray(0, 512).toString('latin1'))?.[1];
    if (declared) encoding = declared;
  }
  if (!iconv.encodingExists(encoding)) return `the declared encoding "${encoding}" is not one Tributary can decode`;
  const decoder = iconv.getDecoder(encoding);
  return { encoding, skip, write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' };
}
