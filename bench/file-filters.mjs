// Cost of matching file names against file_filter patterns: the linear-time automata
// (shared/config/file-filters) against the backtracking RegExp translation globs had before, for
// patterns plants use and for the pathological one of issue 16. Usage (after npm run build:node):
// node bench/file-filters.mjs [names=20000]
import { compileFileFilter } from '../dist/shared/config/file-filters/index.js';

const count = Number(process.argv[2] ?? 20_000);
const names = Array.from({ length: count }, (_, i) => (i % 3 === 0 ? `line${i % 7}/press_${String(i).padStart(5, '0')}.csv` : i % 3 === 1 ? `oven_${i}.txt` : `Station_${i % 40}_2026-01-${String((i % 28) + 1).padStart(2, '0')}.csv`));

/** The RegExp translation of globs before (glob.ts): a backtracking matcher. */
function legacyRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*';
        i += 1;
        if (pattern[i + 1] === '/') i += 1;
      } else source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function time(run, repeats) {
  run(); // warm up
  const started = process.hrtime.bigint();
  for (let r = 0; r < repeats; r += 1) run();
  return Number(process.hrtime.bigint() - started) / 1e3 / repeats;
}

const rows = [];
for (const pattern of ['*.csv', 'press_*.csv', 'Station_??_2026-01-*.csv', 'line1/**/*.csv', 'regex:press_\\d{5}\\.csv', 'regex:.*station.*']) {
  const compiled = compileFileFilter(pattern, { path: false, ignoreCase: false }).filter;
  const legacy = pattern.startsWith('regex:') ? new RegExp(`^(?:${pattern.slice(6)})$`) : legacyRegExp(pattern);
  const againstPath = compiled.againstPath;
  const automaton = time(() => names.reduce((n, name) => n + (compiled.matches(name) ? 1 : 0), 0), 5);
  const regexp = time(() => names.reduce((n, name) => n + (legacy.test(againstPath ? name : name.slice(name.lastIndexOf('/') + 1)) ? 1 : 0), 0), 5);
  rows.push({ pattern, names: count, automaton_us_per_name: +(automaton / count).toFixed(3), regexp_us_per_name: +(regexp / count).toFixed(3) });
}
console.table(rows);

const worst = [];
// The first pattern takes the fast path for text and "*"; the leading "?" of the second sends the same
// pattern through the automaton; the third is the classic catastrophic regular expression.
for (const [pattern, legacy] of [
  ['*a*a*a*a*a*a*a*a*b', legacyRegExp('*a*a*a*a*a*a*a*a*b')],
  ['?*a*a*a*a*a*a*a*a*b', legacyRegExp('?*a*a*a*a*a*a*a*a*b')],
  ['regex:(a+)+b', /^(?:(a+)+b)$/],
]) {
  const filter = compileFileFilter(pattern, { path: false, ignoreCase: false }).filter;
  for (const length of [20, 24, 28, 200, 2000, 20000]) {
    const name = `${'a'.repeat(length)}.csv`;
    const automaton = time(() => filter.matches(name), 3);
    // The backtracking matcher grows by orders of magnitude per few characters: only short names are timed.
    const regexp = length <= 28 ? time(() => legacy.test(name), 1) : undefined;
    worst.push({ pattern, name_length: length + 4, automaton_ms: +(automaton / 1000).toFixed(3), regexp_ms: regexp === undefined ? 'not run (hours)' : +(regexp / 1000).toFixed(1) });
  }
}
console.table(worst);
