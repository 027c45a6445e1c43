/** Rows of the log view: one line high each, except the lines expanded to their whole text. */
export const ROW_HEIGHT = 22;

export interface RowLayout {
  /** Height of all rows. */
  total: number;
  /** Where row `index` begins. */
  top(index: number): number;
  /** The row at `y` (clamped to the rows there are). */
  indexAt(y: number): number;
}

/**
 * Positions of `lines` when the ones in `expanded` (text → height) are taller. Without expanded lines
 * it is plain arithmetic; with some, one pass finds them (a few among up to 100,000 lines).
 */
export function rowLayout(lines: readonly { raw: string }[], expanded: ReadonlyMap<string, number>): RowLayout {
  /** Expanded rows in order, with the extra height of the expanded rows before each. */
  const tall: { index: number; extra: number; before: number }[] = [];
  let extra = 0;
  if (expanded.size > 0)
    lines.forEach((line, index) => {
      const height = expanded.get(line.raw);
      if (height === undefined) return;
      tall.push({ index, extra: height - ROW_HEIGHT, before: extra });
      extra += height - ROW_HEIGHT;
    });
  const top = (index: number) => {
    let before = 0;
    for (const row of tall) {
      if (row.index >= index) break;
      before = row.before + row.extra;
    }
    return index * ROW_HEIGHT + before;
  };
  const indexAt = (y: number) => {
    let before = 0;
    for (const row of tall) {
      const start = row.index * ROW_HEIGHT + row.before;
      if (y < start) break;
      if (y < start + ROW_HEIGHT + row.extra) return row.index;
      before = row.before + row.extra;
    }
    return Math.max(0, Math.min(lines.length - 1, Math.floor((y - before) / ROW_HEIGHT)));
  };
  return { total: lines.length * ROW_HEIGHT + extra, top, indexAt };
}
