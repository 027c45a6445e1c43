// Sums a sampling heap profile (bench/alloc-profile.cjs) by function and by file: MB allocated.
// Usage: node bench/alloc-summary.mjs FILE [top]
import fs from 'node:fs';

const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 30);
const byFunction = new Map();
const byFile = new Map();
let total = 0;
const short = (url) => url.replace(/^.*\/(node_modules\/[^/]+|dist\/)/, '$1');
(function walk(node) {
  const self = node.selfSize;
  total += self;
  const { functionName, url, lineNumber } = node.callFrame;
  const fn = `${functionName || '(anonymous)'} ${short(url)}:${lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + self);
  const file = short(url) || functionName || '(root)';
  byFile.set(file, (byFile.get(file) ?? 0) + self);
  for (const child of node.children) walk(child);
})(profile.head);
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, size] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(size / 1048576).toFixed(1).padStart(8)} MB ${((100 * size) / total).toFixed(1).padStart(5)} %  ${key}`);
};
console.log(`allocated (sampled): ${(total / 1048576).toFixed(1)} MB`);
show('by function', byFunction);
show('by file', byFile);
