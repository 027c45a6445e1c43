// Flame graphs of V8 CPU profiles (from `npm run bench -- --profile <dir>`): one SVG per thread,
// the whole stack of every sample (idle left out), the width of a frame its time with what it
// calls, the callers below. Hover a frame for its name, place and time.
// Usage: node bench/flame-graph.mjs <dir> <out-dir> [name=file …]  (names: main, parse-1, …)
import fs from 'node:fs';
import path from 'node:path';

const [dir, outDir, ...names] = process.argv.slice(2);
if (!dir || !outDir) {
  console.error('usage: node bench/flame-graph.mjs <profile dir> <out dir> [name=profile-file …]');
  process.exit(2);
}
const WIDTH = 1200;
const ROW = 16;
const MIN_WIDTH = 0.5;
const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The profile's call tree with each node's time (µs) including what it calls, idle left out. */
function treeOf(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, { node, self: 0, total: 0, children: [] }]));
  for (let i = 0; i < profile.samples.length; i += 1) byId.get(profile.samples[i]).self += profile.timeDeltas[i] ?? 0;
  for (const entry of byId.values()) entry.children = (entry.node.children ?? []).map((id) => byId.get(id)).filter((child) => child.node.callFrame.functionName !== '(idle)');
  const total = (entry) => (entry.total = entry.self + entry.children.reduce((sum, child) => sum + total(child), 0));
  const root = byId.get(profile.nodes[0].id);
  total(root);
  return root;
}

function label(frame) {
  const place = frame.url ? ` ${path.basename(frame.url)}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${place}`;
}

function color(name) {
  let hash = 0;
  for (let i = 0; i < name.length; i += 1) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  return `rgb(${205 + (hash % 50)},${80 + ((hash >> 8) % 120)},${40 + ((hash >> 16) % 50)})`;
}

function svgOf(root, title) {
  const rects = [];
  let depth = 0;
  const place = (entry, x, level) => {
    const width = (entry.total / root.total) * WIDTH;
    if (width < MIN_WIDTH) return;
    depth = Math.max(depth, level);
    rects.push({ entry, x, level, width });
    let childX = x;
    for (const child of entry.children) {
      place(child, childX, level + 1);
      childX += (child.total / root.total) * WIDTH;
    }
  };
  place(root, 0, 0);
  const height = (depth + 1) * ROW + 40;
  const body = rects.map(({ entry, x, level, width }) => {
    const name = level === 0 ? 'all' : label(entry.node.callFrame);
    const ms = entry.total / 1000;
    const share = ((entry.total / root.total) * 100).toFixed(1);
    const y = height - (level + 1) * ROW;
    const text = width > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${y + 12}" font-size="11">${escape(name.slice(0, Math.floor(width / 7)))}</text>` : '';
    return `<g><title>${escape(name)}: ${ms.toFixed(1)} ms, ${share} %</title><rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW - 1}" fill="${color(name)}"/>${text}</g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="monospace"><rect width="100%" height="100%" fill="#fff"/><text x="4" y="18" font-size="14">${escape(title)}: ${(root.total / 1000).toFixed(0)} ms busy</text>${body.join('')}</svg>\n`;
}

fs.mkdirSync(outDir, { recursive: true });
const files = fs.readdirSync(dir).filter((file) => file.endsWith('.cpuprofile')).sort();
const named = new Map(names.map((pair) => pair.split('=')).map(([name, file]) => [file, name]));
for (const file of files) {
  const name = named.get(file) ?? (named.size > 0 ? undefined : path.basename(file, '.cpuprofile'));
  if (!name) continue;
  const root = treeOf(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
  fs.writeFileSync(path.join(outDir, `flame-${name}.svg`), svgOf(root, name));
  console.log(`${name}: ${(root.total / 1000).toFixed(0)} ms busy -> ${path.join(outDir, `flame-${name}.svg`)}`);
}
