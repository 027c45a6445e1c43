/**
 * `parser_type: "excel"`: one sheet of an .xlsx / .xlsm workbook, streamed from the zip (zip-entries)
 * through saxes a row at a time; the records pandas read_excel (openpyxl) would give. Cells keep
 * their types: numbers, text (shared, inline, formula results), booleans; error cells are null;
 * date-formatted numbers become UTC ISO time stamps of their wall time in localtz.
 */
import { SaxesParser } from 'saxes';
import type { z } from 'zod';
import type { ExcelParserSchema } from '../../../../shared/config/parsers/index.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { type ByteSource, DOCUMENT_LIMITS, DocumentError, type DocumentReader, type DocumentRecord } from '../document/document-reader.js';
import { type DocumentTimes, createDocumentTimes } from '../document/document-times.js';
import { columnIndexOf } from '../../../../shared/config/parsers/excel/usecols.js';
import { type DateKind, readDateStyles, readSharedStrings, readWorkbook } from './workbook-parts.js';
import { EntryText, ZipError, readZipDirectory } from './zip-entries.js';
import { SheetRecords } from './sheet-rows.js';

type ExcelConfig = z.infer<typeof ExcelParserSchema>;

/** Columns of one row read at most (Excel's own limit is 16,384). */
const MAX_COLUMNS = 16_384;
const DAY_MS = 86_400_000;

export function openExcelReader(config: ExcelConfig, source: ByteSource, name: string): DocumentReader {
  try {
    return new XlsxReader(config, source, name);
  } catch (cause) {
    source.close();
    if (cause instanceof ZipError) throw new DocumentError(name, cause.message);
    throw cause;
  }
}

class XlsxReader implements DocumentReader {
  private readonly text: EntryText;
  private readonly parser = new SaxesParser({ position: true });
  private readonly queue: DocumentRecord[] = [];
  private readonly problems: string[] = [];
  private readonly rows: SheetRecords;
  private readonly times: DocumentTimes;
  private readonly label: string;
  private finished = false;
  private pending: DocumentError | undefined;
  // The row and cell being read.
  private rowIndex = -1;
  private cells: FieldValue[] = [];
  private cellColumn = 0;
  private cellType = 'n';
  private cellStyle = 0;
  private value = '';
  private inValue = false;
  private depth = 0;

  constructor(config: ExcelConfig, private readonly source: ByteSource, name: string) {
    const entries = readZipDirectory(source);
    const workbook = readWorkbook(source, entries);
    const wanted = config.options?.sheet_name ?? 0;
    const sheet = typeof wanted === 'number' ? workbook.sheets[wanted] : workbook.sheets.find((s) => s.name === wanted);
    if (!sheet) throw new ZipError(`no sheet ${typeof wanted === 'number' ? `at position ${wanted}` : `"${wanted}"`} (sheets: ${workbook.sheets.map((s) => `"${s.name}"`).join(', ')})`);
    const entry = entries.get(sheet.part);
    if (!entry) throw new ZipError(`sheet "${sheet.name}" has no part ${sheet.part}`);
    const strings = readSharedStrings(source, entries);
    const styles = readDateStyles(source, entries);
    this.label = `${name} sheet "${sheet.name}"`;
    this.times = createDocumentTimes(config.options);
    this.rows = new SheetRecords(config.options ?? {});
    this.text = new EntryText(source, entry);
    const epoch = workbook.date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
    this.listen(strings, styles, epoch, workbook.date1904);
  }

  get done(): boolean {
    return this.finished && this.queue.length === 0 && this.pending === undefined;
  }

  takeProblems(): string[] {
    return this.problems.splice(0);
  }

  close(): void {
    this.source.close();
  }

  next(max: number): DocumentRecord[] {
    while (this.queue.length < max && !this.finished) {
      try {
        if (this.text.done || this.rows.full) {
          this.finished = true;
          break;
        }
        this.parser.write(this.text.next());
      } catch (cause) {
        this.finished = true;
        const place = `${this.label} row ${this.rowIndex + 1}`;
        const message = cause instanceof ZipError || cause instanceof DocumentError ? cause.message.replace(/^.*?: /, '') : `not a readable sheet (${(cause as Error).message.replace(/^[^:]*:\d+:\d+: /, '')})`;
        // The rows before the broken place are read; the error comes with the next call.
        this.pending = new DocumentError(place, message);
      }
    }
    if (this.pending && this.queue.length === 0) throw this.pending;
    return this.queue.splice(0, max);
  }

  private listen(strings: string[], styles: DateKind[], epoch: number, date1904: boolean): void {
    const parser = this.parser;
    parser.on('opentag', (tag) => {
      if (!tag.isSelfClosing && (this.depth += 1) > DOCUMENT_LIMITS.maxDepth) throw new ZipError(`elements nested deeper than ${DOCUMENT_LIMITS.maxDepth} levels`);
      switch (tag.name) {
        case 'row': {
          const r = Number(tag.attributes.r);
          this.rowIndex = Number.isInteger(r) && r > 0 ? r - 1 : this.rowIndex + 1;
          this.cells = [];
          this.cellColumn = 0;
          if (tag.isSelfClosing) this.endRow();
          break;
        }
        case 'c': {
          const ref = String(tag.attributes.r ?? '');
          const letters = /^[A-Z]+/.exec(ref)?.[0];
          this.cellColumn = letters ? columnIndexOf(letters) : this.cells.length;
          if (this.cellColumn >= MAX_COLUMNS) throw new ZipError(`a cell beyond column ${MAX_COLUMNS}`);
          this.cellType = String(tag.attributes.t ?? 'n');
          this.cellStyle = Number(tag.attributes.s ?? 0);
          this.value = '';
          break;
        }
        case 'v':
        case 't':
          this.inValue = true;
          break;
      }
    });
    parser.on('text', (text) => {
      if (!this.inValue) return;
      this.value += text;
      if (this.value.length > DOCUMENT_LIMITS.maxRecordChars) throw new ZipError('a cell holds more text than a record may');
    });
    parser.on('closetag', (tag) => {
      if (!tag.isSelfClosing) this.depth -= 1;
      switch (tag.name) {
        case 'v':
        case 't':
          this.inValue = false;
          break;
        case 'c':
          this.cells[this.cellColumn] = this.cellValue(strings, styles, epoch, date1904);
          break;
        case 'row':
          if (!tag.isSelfClosing) this.endRow();
          break;
      }
    });
    parser.on('error', (error) => {
      throw new ZipError(error.message);
    });
  }

  private cellValue(strings: string[], styles: DateKind[], epoch: number, date1904: boolean): FieldValue {
    const text = this.value;
    switch (this.cellType) {
      case 's':
        return strings[Number(text)] ?? null;
      case 'str':
      case 'inlineStr':
        return text;
      case 'b':
        return text === '1' || text === 'true';
      case 'e':
        return null;
      case 'd':
        return text === '' ? null : this.times.isoOf(wallOf(Date.parse(text.endsWith('Z') ? text : `${text}Z`)));
    }
    if (text === '') return null;
    const number = Number(text);
    if (!Number.isFinite(number)) return text;
    const kind = styles[this.cellStyle];
    if (kind === undefined) return number;
    // Lotus' phantom 29 February 1900: serials before it are a day off (as openpyxl reads them).
    const serial = !date1904 && number > 0 && number < 60 ? number + 1 : number;
    const days = Math.floor(serial);
    const ms = epoch + days * DAY_MS + Math.round((serial - days) * DAY_MS);
    const wall = wallOf(ms);
    if (kind === 'time' && number < 1) return `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}`;
    return this.times.isoOf(wall);
  }

  private endRow(): void {
    const fieldvalues = this.rows.accept({ index: this.rowIndex, cells: this.cells });
    const place = `${this.label} row ${this.rowIndex + 1}`;
    if (typeof fieldvalues === 'string') throw new DocumentError(place, fieldvalues);
    if (!fieldvalues) return;
    const stamped = this.times.stamp(fieldvalues);
    if (typeof stamped === 'string') this.problems.push(`${place}: ${stamped}`);
    else this.queue.push({ fieldvalues, place, ...(stamped === null ? {} : { timestampMicros: stamped }) });
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

function wallOf(ms: number) {
  const date = new Date(ms);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    microsecond: date.getUTCMilliseconds() * 1000,
  };
}
