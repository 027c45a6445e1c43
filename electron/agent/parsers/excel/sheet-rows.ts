/**
 * From a sheet's rows to records, as pandas read_excel does: skiprows (raw rows), blank rows
 * dropped, the header row (names, "Unnamed: i" for empty ones, "a.1" for repeated ones), nrows,
 * usecols. Cell values arrive typed (excel-cells in xlsx-reader.ts).
 */
import type { z } from 'zod';
import type { ExcelParserSchema } from '../../../../shared/config/parsers/index.js';
import { columnsOfLetters } from '../../../../shared/config/parsers/excel/usecols.js';
import type { FieldValue } from '../../../../shared/records/record.js';

type ExcelOptions = NonNullable<z.infer<typeof ExcelParserSchema>['options']>;

export interface SheetRow {
  /** Zero-based row index in the sheet (Excel row number - 1). */
  index: number;
  cells: FieldValue[];
}

export class SheetRecords {
  private readonly skip: (index: number) => boolean;
  private readonly headerAt: number | null;
  private names: string[] | null = null;
  private keep: number[] | null = null;
  private seen = 0;
  private data = 0;
  private nextIndex = 0;

  constructor(private readonly options: ExcelOptions) {
    const skiprows = options.skiprows;
    const skipped = new Set(Array.isArray(skiprows) ? skiprows : []);
    this.skip = typeof skiprows === 'number' ? (index) => index < skiprows : (index) => skipped.has(index);
    this.headerAt = options.header === null ? null : (options.header ?? 0);
  }

  /** All rows pandas would read are read (nrows reached). */
  get full(): boolean {
    return this.options.nrows !== undefined && this.data >= this.options.nrows;
  }

  /**
   * The record of a row, or null for a row that is none (skipped, the header, after nrows, blank).
   * Blank rows count as rows (pandas' header and nrows positions) but give no record.
   */
  accept(row: SheetRow): Record<string, FieldValue> | string | null {
    // Rows the sheet does not list between two listed ones are blank rows too.
    for (let gap = this.nextIndex; gap < row.index; gap += 1) this.count(gap, true);
    this.nextIndex = row.index + 1;
    const position = this.count(row.index, row.cells.every((cell) => cell === null || cell === ''));
    if (position === undefined) return null;
    if (this.headerAt !== null && position === this.headerAt) {
      const problem = this.setNames(row.cells.map((cell) => (cell === null || cell === '' ? null : String(cell))));
      return problem ?? null;
    }
    if (!this.names) {
      const problem = this.setNames(row.cells.map(() => null), true);
      if (problem) return problem;
    }
    const names = this.names!;
    const fieldvalues: Record<string, FieldValue> = {};
    for (const c of this.keep!) {
      const value = row.cells[c];
      fieldvalues[names[c] ?? `Unnamed: ${c}`] = value === undefined || value === '' ? null : value;
    }
    return fieldvalues;
  }

  /** Counts a row; its position among the rows pandas reads when it is a data row or the header, else undefined. */
  private count(index: number, blank: boolean): number | undefined {
    if (this.skip(index) || this.full) return undefined;
    const position = this.seen;
    this.seen += 1;
    if (this.headerAt !== null && position < this.headerAt) return undefined;
    if (this.headerAt === null || position > this.headerAt) this.data += 1;
    return blank ? undefined : position;
  }

  private setNames(cells: (string | null)[], positional = this.headerAt === null): string | undefined {
    const used = new Map<string, number>();
    this.names = cells.map((cell, i) => {
      const base = positional ? String(i) : (cell ?? `Unnamed: ${i}`);
      const count = used.get(base) ?? 0;
      used.set(base, count + 1);
      return count === 0 ? base : `${base}.${count}`;
    });
    const usecols = this.options.usecols;
    if (usecols === undefined) this.keep = this.names.map((_, i) => i);
    else if (typeof usecols === 'string') {
      const letters = columnsOfLetters(usecols);
      if (typeof letters === 'string') return letters;
      this.keep = [...letters].sort((a, b) => a - b);
    } else {
      const keep: number[] = [];
      for (const column of usecols) {
        const index = typeof column === 'number' ? column : this.names.indexOf(column);
        if (index < 0) return `usecols names "${column}", which is not a column of the header (${this.names.join(', ')})`;
        keep.push(index);
      }
      this.keep = keep.sort((a, b) => a - b);
    }
    return undefined;
  }
}
