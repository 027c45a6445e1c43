import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'dist', 'electron', 'ingest', 'cli.js');

/** The ingest server (`npm run ingest-server`, built by `npm run build`) as its own process: the cloud a transmit uploads to. */
export interface IngestProcess {
  /** Base URL for a remotedatapost transmit's base_url. */
  url: string;
  /** Records received so far (from its log: one line per upload). */
  received(): number;
  /** Ends it: the upload target is down. Idempotent. */
  stop(): Promise<void>;
}

export async function startIngestProcess(keyId: string, key: string): Promise<IngestProcess> {
  const child: ChildProcess = spawn(process.execPath, [CLI, '--port', '0', '--key', `${keyId}=${key}`], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let received = 0;
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The ingest server did not start within 20 s.\n${stderr}`)), 20_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const started = /^Tributary ingest server: (\S+)\/v1\/rdp2\/sslogs/.exec(line);
      if (started) {
        clearTimeout(timer);
        resolve(started[1]!);
      }
      const upload = /: (\d+) record\(s\), /.exec(line);
      if (upload) received += Number(upload[1]);
    });
    child.once('exit', (code) => reject(new Error(`The ingest server exited with code ${code}.\n${stderr}`)));
  });
  return {
    url,
    received: () => received,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
