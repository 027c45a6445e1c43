// Summarizes V8 CPU profiles (from `npm run bench -- --profile <dir>`): per thread, total sampled
// time and the functions with the most self time.
// Usage: node bench/profile-summary.mjs <dir> [top=15]
import fs from 'node:fs';
import path from 'node:path';

const [dir, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 15);
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i]);
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0));
  }
  const idle = (self.get('(idle)') ?? 0) / 1000;
  const total = [...self.values()].reduce((a, b) => a + b, 0) / 1000;
  console.log(`\n${file}: ${(total - idle).toFixed(0)} ms busy of ${total.toFixed(0)} ms`);
  const rows = [...self.entries()].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, us] of rows) console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms  ${(((us / 1000) / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${key}`);
}
