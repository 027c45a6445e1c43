/** `options.usecols` of the excel parser, pandas read_excel's forms: "A:C,E", or names / positions. */

/** Zero-based column index of Excel letters ("A" → 0, "AA" → 26). */
export function columnIndexOf(letters: string): number {
  let index = 0;
  for (const char of letters.toUpperCase()) index = index * 26 + (char.charCodeAt(0) - 64);
  return index - 1;
}

/** The column positions a letters form selects, or why it is not one ("A:C,E" → 0,1,2,4). */
export function columnsOfLetters(spec: string): Set<number> | string {
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const match = /^\s*([A-Za-z]{1,3})\s*(?::\s*([A-Za-z]{1,3})\s*)?$/.exec(part);
    if (!match) return `"${spec}": usecols as text is Excel column letters and ranges, e.g. "A:C,E".`;
    const from = columnIndexOf(match[1]!);
    const to = match[2] ? columnIndexOf(match[2]) : from;
    if (to < from) return `"${part.trim()}": a range goes from left to right, e.g. "A:C".`;
    for (let c = from; c <= to; c += 1) out.add(c);
  }
  return out;
}
