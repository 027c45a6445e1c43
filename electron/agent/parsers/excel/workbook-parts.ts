/**
 * What a sheet's cells need from the rest of the workbook: which part is the sheet (workbook.xml
 * and its relationships), the shared strings, which cell styles are dates (styles.xml) and the date
 * system (1900 or 1904). Each part is streamed through saxes; the shared strings are the one part
 * kept in memory, bounded.
 */
import { SaxesParser } from 'saxes';
import { type ZipEntry, EntryText, ZipError } from './zip-entries.js';
import type { ByteSource } from '../document/document-reader.js';

/**
 * What the shared strings may take of a parse thread's heap (128 MiB, workers/worker-client.ts),
 * counted before they are kept: each entry costs its slot and string header as well as its text,
 * so that 200 million empty `<si/>` (1.4 MB zipped) are refused after ~2.8 million, not kept until
 * the thread runs out of memory (issue 50). A workbook of a million distinct 40-character texts
 * (~64 MiB) still reads.
 */
export const MAX_SHARED_STRING_BYTES = 96 * 1024 * 1024;
/** Bytes an entry costs besides its characters: its slot in the list and its string's header. */
export const SHARED_STRING_ENTRY_BYTES = 32;
const MAX_DEPTH = 256;

/** Streams one part through a saxes parser set up by `listen`. */
export function scanPart(source: ByteSource, entries: Map<string, ZipEntry>, name: string, listen: (parser: SaxesParser) => void): boolean {
  const entry = entries.get(name);
  if (!entry) return false;
  const parser = new SaxesParser({ position: true });
  let depth = 0;
  parser.on('opentag', (tag) => {
    if (!tag.isSelfClosing && (depth += 1) > MAX_DEPTH) throw new ZipError(`${name}: elements nested deeper than ${MAX_DEPTH} levels`);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth -= 1;
  });
  listen(parser);
  parser.on('error', (error) => {
    throw new ZipError(`${name}: ${error.message}`);
  });
  const text = new EntryText(source, entry);
  while (!text.done) parser.write(text.next());
  parser.close();
  return true;
}

export interface SheetRef {
  name: string;
  part: string;
}

export interface WorkbookInfo {
  sheets: SheetRef[];
  date1904: boolean;
}

export function readWorkbook(source: ByteSource, entries: Map<string, ZipEntry>): WorkbookInfo {
  const sheets: { name: string; rel: string }[] = [];
  let date1904 = false;
  const found = scanPart(source, entries, 'xl/workbook.xml', (parser) => {
    parser.on('opentag', (tag) => {
      const local = tag.name.replace(/^.*:/, '');
      if (local === 'sheet') {
        const rel = Object.entries(tag.attributes).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1];
        sheets.push({ name: String(tag.attributes.name ?? ''), rel: String(rel ?? '') });
      }
      if (local === 'workbookPr') date1904 = ['1', 'true'].includes(String(tag.attributes.date1904 ?? ''));
    });
  });
  if (!found) throw new ZipError('not an Excel workbook: it has no xl/workbook.xml');
  const targets = new Map<string, string>();
  scanPart(source, entries, 'xl/_rels/workbook.xml.rels', (parser) => {
    parser.on('opentag', (tag) => {
      if (tag.name.replace(/^.*:/, '') === 'Relationship') targets.set(String(tag.attributes.Id), String(tag.attributes.Target));
    });
  });
  return {
    date1904,
    sheets: sheets.map((sheet) => {
      const target = targets.get(sheet.rel) ?? '';
      return { name: sheet.name, part: target.startsWith('/') ? target.slice(1) : `xl/${target}` };
    }),
  };
}

export function readSharedStrings(source: ByteSource, entries: Map<string, ZipEntry>): string[] {
  const strings: string[] = [];
  let total = 0;
  const charge = (bytes: number) => {
    if ((total += bytes) <= MAX_SHARED_STRING_BYTES) return;
    throw new ZipError(
      `xl/sharedStrings.xml: more shared strings than a parse thread holds (over ${strings.length.toLocaleString('en')} entries and ${MAX_SHARED_STRING_BYTES / 1024 / 1024} MiB); the workbook is not read`,
    );
  };
  let current: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  scanPart(source, entries, 'xl/sharedStrings.xml', (parser) => {
    parser.on('opentag', (tag) => {
      const local = tag.name.replace(/^.*:/, '');
      if (local === 'si') {
        // Counted before it is kept: an empty entry costs its slot too.
        charge(SHARED_STRING_ENTRY_BYTES);
        current = [];
      }
      else if (local === 'rPh') phonetic += 1;
      else if (local === 't' && phonetic === 0) inText = !tag.isSelfClosing;
    });
    parser.on('text', (text) => {
      if (!inText || !current) return;
      charge(text.length);
      current.push(text);
    });
    parser.on('closetag', (tag) => {
      const local = tag.name.replace(/^.*:/, '');
      if (local === 't') inText = false;
      else if (local === 'rPh') phonetic -= 1;
      else if (local === 'si' && current) {
        strings.push(current.join(''));
        current = null;
      }
    });
  });
  return strings;
}

/** Built-in number formats that are dates or times (ECMA-376 18.8.30). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);
const TIME_ONLY = new Set([18, 19, 20, 21, 45, 46, 47]);

export type DateKind = 'date' | 'time' | undefined;

/** Whether a format code shows a date or time: d, m, y, h or s outside quotes and brackets (openpyxl's rule). */
export function dateKindOfFormat(code: string): DateKind {
  const bare = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '').split(';')[0] ?? '';
  if (!/[dmyhs]/i.test(bare.replace(/_./g, ''))) return undefined;
  return /[dy]/i.test(bare) ? 'date' : 'time';
}

/** The date kind of each cell style (index of cellXfs). */
export function readDateStyles(source: ByteSource, entries: Map<string, ZipEntry>): DateKind[] {
  const custom = new Map<number, string>();
  const styles: DateKind[] = [];
  let inCellXfs = false;
  scanPart(source, entries, 'xl/styles.xml', (parser) => {
    parser.on('opentag', (tag) => {
      const local = tag.name.replace(/^.*:/, '');
      if (local === 'numFmt') custom.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''));
      else if (local === 'cellXfs') inCellXfs = !tag.isSelfClosing;
      else if (local === 'xf' && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0);
        const code = custom.get(id);
        styles.push(code !== undefined ? dateKindOfFormat(code) : BUILT_IN_DATES.has(id) ? (TIME_ONLY.has(id) ? 'time' : 'date') : undefined);
      }
    });
    parser.on('closetag', (tag) => {
      if (tag.name.replace(/^.*:/, '') === 'cellXfs') inCellXfs = false;
    });
  });
  return styles;
}
