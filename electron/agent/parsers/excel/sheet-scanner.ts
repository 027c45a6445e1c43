/**
 * A worksheet's rows from its XML text, piece by piece. The sheet is the bulk of a workbook and its
 * XML is regular (rows of cells, each a value or an inline string), so it is scanned with a few
 * regular expressions instead of a general XML parser: 5-10x faster than saxes here (docs/
 * performance.md, "Excel, JSON and XML"); the small parts of the workbook still go through saxes.
 * Only the text after the last complete row is kept between pieces, bounded by `maxRowChars`.
 */

import { ZipError } from './zip-entries.js';

export interface RawCell {
  column: number;
  type: string;
  style: number;
  /** The <v> text, or the inline string's text; '' for none. */
  text: string;
}

export interface RawRow {
  /** Zero-based row index (the r attribute - 1; following the previous row when absent). */
  index: number;
  cells: RawCell[];
}

const ROW = /<(?:\w+:)?row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?row>)/g;
const CELL = /<(?:\w+:)?c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:\w+:)?c>)/g;
const VALUE = /<(?:\w+:)?v(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?v>/;
const INLINE_TEXT = /<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>/g;
const PHONETIC = /<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g;
const ROW_END = /<\/(?:\w+:)?row>|<(?:\w+:)?row\b[^>]*\/>/g;
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function attribute(attributes: string, name: string): string | undefined {
  const at = attributes.indexOf(` ${name}="`);
  if (at < 0) return undefined;
  const start = at + name.length + 3;
  return attributes.slice(start, attributes.indexOf('"', start));
}

export function decodeXmlText(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(ENTITY, (_, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name]!;
    const code = hex ? Number.parseInt(hex, 16) : Number(decimal);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** Zero-based column of a cell reference ("AB12" → 27), or -1. */
function columnOf(reference: string | undefined): number {
  if (!reference) return -1;
  let column = 0;
  let i = 0;
  for (; i < reference.length; i += 1) {
    const code = reference.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return i === 0 ? -1 : column - 1;
}

export class SheetScanner {
  private carry = '';
  private lastIndex = -1;

  constructor(private readonly maxRowChars: number, private readonly maxColumns: number) {}

  /** The complete rows of the text so far; `end`: no more text comes. */
  push(text: string, end: boolean, visit: (row: RawRow) => void): void {
    const buffer = this.carry + text;
    let cut = 0;
    ROW_END.lastIndex = 0;
    // The end of the last complete row in the buffer.
    for (let found = ROW_END.exec(buffer); found; found = ROW_END.exec(buffer)) cut = found.index + found[0].length;
    const complete = end ? buffer : buffer.slice(0, cut);
    this.carry = end ? '' : buffer.slice(cut);
    if (this.carry.length > this.maxRowChars) throw new ZipError(`a row longer than ${this.maxRowChars} characters`);
    ROW.lastIndex = 0;
    for (let row = ROW.exec(complete); row; row = ROW.exec(complete)) {
      const r = Number(attribute(row[1]!, 'r'));
      const index = Number.isInteger(r) && r > 0 ? r - 1 : this.lastIndex + 1;
      this.lastIndex = index;
      visit({ index, cells: row[2] ? this.cells(row[2]) : [] });
    }
  }

  private cells(body: string): RawCell[] {
    const cells: RawCell[] = [];
    CELL.lastIndex = 0;
    for (let cell = CELL.exec(body); cell; cell = CELL.exec(body)) {
      const attributes = cell[1]!;
      let column = columnOf(attribute(attributes, 'r'));
      if (column < 0) column = cells.length === 0 ? 0 : cells[cells.length - 1]!.column + 1;
      if (column >= this.maxColumns) throw new ZipError(`a cell beyond column ${this.maxColumns}`);
      const type = attribute(attributes, 't') ?? 'n';
      const style = Number(attribute(attributes, 's') ?? 0);
      const inner = cell[2] ?? '';
      let text = '';
      if (type === 'inlineStr') {
        const parts: string[] = [];
        INLINE_TEXT.lastIndex = 0;
        const body = inner.replace(PHONETIC, '');
        for (let t = INLINE_TEXT.exec(body); t; t = INLINE_TEXT.exec(body)) parts.push(t[1]!);
        text = decodeXmlText(parts.join(''));
      } else if (inner) text = decodeXmlText(VALUE.exec(inner)?.[1] ?? '');
      cells.push({ column, type, style, text });
    }
    return cells;
  }
}
