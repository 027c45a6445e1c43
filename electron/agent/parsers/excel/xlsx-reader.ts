/**
 * `parser_type: "excel"`: one sheet of an .xlsx / .xlsm workbook, streamed from the zip (zip-entries)
 * through saxes a row at a time; the records pandas read_excel (openpyxl) would give. Cells keep
 * their types: numbers, text (shared, inline, formula results), booleans; error cells are null;
 * date-formatted numbers become UTC ISO time stamps of their wall time in localtz.
 */
import type { z } from 'zod';
import type { ExcelParserSchema } from '../../../../shared/config/parsers/index.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { type ByteSource, DOCUMENT_LIMITS, DocumentError, type DocumentReader, type DocumentRecord } from '../document/document-reader.js';
import { type DocumentTimes, createDocumentTimes } from '../document/document-times.js';
import { type RawCell, SheetScanner } from './sheet-scanner.js';
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
  private readonly scanner = new SheetScanner(DOCUMENT_LIMITS.maxRecordChars, MAX_COLUMNS);
  private readonly queue: DocumentRecord[] = [];
  private readonly problems: string[] = [];
  private readonly rows: SheetRecords;
  private readonly times: DocumentTimes;
  private readonly label: string;
  private finished = false;
  private pending: DocumentError | undefined;
  // The row being read.
  private rowIndex = -1;
  private cells: FieldValue[] = [];
  private readonly strings: string[];
  private readonly styles: DateKind[];
  private readonly epoch: number;
  private readonly date1904: boolean;

  constructor(config: ExcelConfig, private readonly source: ByteSource, name: string) {
    const entries = readZipDirectory(source);
    const workbook = readWorkbook(source, entries);
    const wanted = config.options?.sheet_name ?? 0;
    const sheet = typeof wanted === 'number' ? workbook.sheets[wanted] : workbook.sheets.find((s) => s.name === wanted);
    if (!sheet) throw new ZipError(`no sheet ${typeof wanted === 'number' ? `at position ${wanted}` : `"${wanted}"`} (sheets: ${workbook.sheets.map((s) => `"${s.name}"`).join(', ')})`);
    const entry = entries.get(sheet.part);
    if (!entry) throw new ZipError(`sheet "${sheet.name}" has no part ${sheet.part}`);
    this.strings = readSharedStrings(source, entries);
    this.styles = readDateStyles(source, entries);
    this.label = `${name} sheet "${sheet.name}"`;
    this.times = createDocumentTimes(config.options);
    this.rows = new SheetRecords(config.options ?? {});
    this.text = new EntryText(source, entry);
    this.date1904 = workbook.date1904;
    this.epoch = workbook.date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
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
        const text = this.text.next();
        this.scanner.push(text, this.text.done, (row) => {
          this.rowIndex = row.index;
          this.cells = [];
          for (const cell of row.cells) this.cells[cell.column] = this.cellValue(cell);
          this.endRow();
        });
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

  private cellValue(cell: RawCell): FieldValue {
    const { text, type } = cell;
    switch (type) {
      case 's':
        return this.strings[Number(text)] ?? null;
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
    const kind = this.styles[cell.style];
    if (kind === undefined) return number;
    // Lotus' phantom 29 February 1900: serials before it are a day off (as openpyxl reads them).
    const serial = !this.date1904 && number > 0 && number < 60 ? number + 1 : number;
    const days = Math.floor(serial);
    const ms = this.epoch + days * DAY_MS + Math.round((serial - days) * DAY_MS);
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
