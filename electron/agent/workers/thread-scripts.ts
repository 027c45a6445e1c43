import { workerScript } from './worker-script.js';

/**
 * The agent's worker threads, declared once: each is a composition root in threads/ (docs/
 * architecture.md, "Threads"), started by name. No component names a script by its path, so the
 * check in thread-scripts.test.ts sees every thread the agent can start.
 */
export const THREAD_SCRIPTS = {
  /** Reads, parses and commits file chunks and documents (workers/parse-worker-pool.ts). */
  parse: 'parse-worker.js',
  /** Encrypts upload bodies of the remotedatapost transmit. */
  encode: 'encode-worker.js',
  /** Validates large configuration documents. */
  validate: 'validate-worker.js',
} as const;

export type ThreadName = keyof typeof THREAD_SCRIPTS;

/** The compiled script of a thread (dist/ under the TypeScript test runner, as workerScript). */
export function threadScript(name: ThreadName): string {
  return workerScript(import.meta.url, `../threads/${THREAD_SCRIPTS[name]}`);
}
