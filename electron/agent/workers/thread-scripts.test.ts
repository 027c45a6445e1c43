import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { THREAD_SCRIPTS, threadScript } from './thread-scripts.js';

const AGENT = fileURLToPath(new URL('..', import.meta.url));

function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('the agent\'s worker threads (issue 51 point 2)', () => {
  it('declares each thread once, as a composition root in threads/ that exists', () => {
    for (const [name, script] of Object.entries(THREAD_SCRIPTS)) {
      const source = path.join(AGENT, 'threads', script.replace(/\.js$/, '.ts'));
      expect(fs.existsSync(source), `${name}: ${source}`).toBe(true);
      expect(threadScript(name as keyof typeof THREAD_SCRIPTS)).toMatch(new RegExp(`threads[\\\\/]${script.replace('.', '\\.')}$`));
    }
  });

  it('starts no worker by a path string outside the declarations', () => {
    // worker-client.ts starts the script it is given: a declared one.
    const declared = new Set(['workers/thread-scripts.ts', 'workers/worker-script.ts', 'workers/worker-client.ts']);
    const offending = productFiles(AGENT)
      .map((file) => path.relative(AGENT, file).split(path.sep).join('/'))
      .filter((file) => !declared.has(file))
      .filter((file) => /workerScript\(|new Worker\(/.test(fs.readFileSync(path.join(AGENT, file), 'utf8')));
    expect(offending, 'start a thread by name: threadScript(\'parse\'), declared in workers/thread-scripts.ts').toEqual([]);
  });
});
