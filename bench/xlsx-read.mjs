// Reads a workbook with the excel parser in this process and prints what it took as JSON: rows,
// seconds, peak RSS (MiB). Run as its own process by bench/documents.mjs so that RSS is its own.
import { openDocumentReader, openFileSource } from '../dist/electron/agent/parsers/document/index.js';

const [file, options] = [process.argv[2], JSON.parse(process.argv[3] ?? '{}')];
let peak = process.memoryUsage.rss();
const started = performance.now();
const reader = openDocumentReader({ parser_name: 'bench', parser_type: 'excel', options }, openFileSource(file), file);
let rows = 0;
while (!reader.done) {
  rows += reader.next(2000).length;
  peak = Math.max(peak, process.memoryUsage.rss());
}
reader.close();
console.log(JSON.stringify({ rows, seconds: (performance.now() - started) / 1000, peakRssMiB: Math.round(peak / 1024 / 1024) }));
