/**
 * Test support for the smb receiver: the Samba servers of scripts/ci/start-samba.sh (loopback, ports
 * 4445 and 4446) and a "plant" whose machines drop files into a fresh folder of a share. Tests put
 * files on the share by writing into the share's folder on local disk, as a machine writing over SMB
 * would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filePlant } from './file-plant.js';

export const SAMBA = {
  host: '127.0.0.1',
  port: 4445,
  /** Local folder behind the share "data". */
  directory: '/tmp/tributary-samba/data',
  user: { username: 'smbtest', password: 'tributary-smb-pass' },
  /** May read the share "data" but not delete, and may not open the share "private". */
  readOnlyUser: { username: 'smbtest_ro', password: 'tributary-ro-pass' },
};

/** The shares a plant can use: share name, port and the local folder behind it. */
export const SAMBA_SHARES = {
  /** Signing and encryption offered, not required; SMB 2.0.2 to 3.1.1. */
  plain: { port: 4445, share: 'data', directory: SAMBA.directory },
  /** `server min protocol = SMB3_11`, `server signing = mandatory`. */
  strict: { port: 4446, share: 'data', directory: '/tmp/tributary-samba-strict/data' },
  /** `smb encrypt = required` on a server that requires nothing else. */
  sealed: { port: 4445, share: 'sealed', directory: '/tmp/tributary-samba/sealed' },
} as const;
export type SambaShare = keyof typeof SAMBA_SHARES;

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/ci/start-samba.sh');

/** Fails with what to do when the test Samba server (of `share`) is not running. */
export async function requireSamba(share: SambaShare = 'plain'): Promise<void> {
  const { port, directory } = SAMBA_SHARES[share];
  const listening = await new Promise<boolean>((resolve) => {
    const socket = net.connect(port, SAMBA.host);
    socket.setTimeout(3000, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
  if (!listening || !fs.existsSync(directory))
    throw new Error(`The test Samba server is not running on ${SAMBA.host}:${port}: run "bash scripts/ci/start-samba.sh" (as root) first.`);
}

/** Stops and starts smbd; every open SMB connection breaks. Blocks until the new smbd listens. */
export function restartSamba(): void {
  const result = spawnSync('bash', [script, '--restart'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`restarting Samba failed: ${result.stderr}`);
}

type PlantOptions = Parameters<typeof filePlant>[0] & {
  connection?: Record<string, unknown>;
  /** Sub-folder of the test's folder that the connection reads (created unless `missing`). */
  folder?: string;
  /** Which test share (default: "data" of the plain server). */
  share?: SambaShare;
};

/**
 * filePlant with an smb receiver: machines write into `<share>/<fresh folder>`, the receiver reads it
 * over SMB as shared_folder "data/<fresh folder>".
 */
export function sambaPlant(options: PlantOptions = {}) {
  const plant = filePlant(options);
  const { port, share, directory } = SAMBA_SHARES[options.share ?? 'plain'];
  const base = fs.mkdtempSync(path.join(directory, 'test-'));
  fs.chmodSync(base, 0o777); // the Samba users are not root
  const drop = path.join(base, options.folder ?? '');
  const receiver = plant.config.data_receiver[0]! as Record<string, unknown>;
  Object.assign(receiver, {
    protocol: 'smb',
    connections: [
      {
        host: SAMBA.host,
        port,
        ...SAMBA.user,
        shared_folder: [share, path.basename(base), ...(options.folder ? [options.folder] : [])].join('/'),
        ...options.connection,
      },
    ],
  });
  const at = (name: string) => path.join(drop, ...name.split('/'));
  return {
    ...plant,
    drop,
    /** Creates a folder (and parents) below the drop folder that the Samba users may write in. */
    mkdir(name: string) {
      let dir = drop;
      for (const part of name ? name.split('/') : []) {
        dir = path.join(dir, part);
        fs.mkdirSync(dir, { recursive: true });
        fs.chmodSync(dir, 0o777);
      }
      if (!name) {
        fs.mkdirSync(drop, { recursive: true });
        fs.chmodSync(drop, 0o777);
      }
    },
    write: (name: string, text: string) => fs.writeFileSync(at(name), text),
    append: (name: string, text: string) => fs.appendFileSync(at(name), text),
    exists: (name: string) => fs.existsSync(at(name)),
    /** The file on this machine. */
    local: at,
    /** How the smb receiver names a file in its progress, logs and markers: \\host\share\folder\file. */
    identity: (name: string) => `\\\\${SAMBA.host}\\${[share, path.basename(base), ...(options.folder ? options.folder.split('/') : []), ...name.split('/')].join('\\')}`,
    rename: (from: string, to: string) => fs.renameSync(at(from), at(to)),
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
