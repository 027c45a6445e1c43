import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SERVE_SCRIPT = fileURLToPath(new URL('../../dist/electron/serve.js', import.meta.url));
const CONSOLE_LINE = /^Tributary console: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/;

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  token: string;
  stdout: () => string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  /** kill -9, and wait until the process is gone. */
  crash(): Promise<void>;
}

/**
 * Runs the built headless server (`node dist/electron/serve.js …`) as a real child process, or
 * another script that prints the same first line (e.g. the host with options serve.js does not take).
 */
export function serveProcess(args: string[], env: NodeJS.ProcessEnv = {}, script = SERVE_SCRIPT, user: { uid?: number; gid?: number } = {}): Promise<ServeProcess> {
  // `user`: run as another (unprivileged) user, where root would read what the test means to be unreadable.
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, TRIBUTARY_API_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...user });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const line = out.split('\n')[0]!;
      const match = CONSOLE_LINE.exec(line);
      if (!match) return reject(new Error(`unexpected first line: ${line}`));
      const port = Number(match[1]);
      const token = match[2]!;
      resolve({
        child,
        port,
        token,
        stdout: () => out,
        async call(method, path, body) {
          const response = await fetch(`http://127.0.0.1:${port}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: response.status, json: await response.json() };
        },
        crash: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const gone = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await gone;
        },
      });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}
