/**
 * The folders of a file receiver's connections (a local folder or a Windows share), opened briefly
 * for validation and preview: list the files as the receiver would see them, read a few bytes of
 * one. Nothing here keeps progress or touches the store.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { LocalfileConnectionSchema, SmbConnectionSchema } from '../../../shared/config/schema.js';
import { parseSharedFolder, smbCredentials } from '../../../shared/config/smb-rules.js';
import { MAX_DEPTH } from '../receivers/file-source/file-discovery.js';
import { readRange } from '../receivers/file-source/read-range.js';
import { isTemporaryName } from '../receivers/file-source/glob.js';
import { type ConnectionCategory, describeProblem } from '../receivers/smb/smb-problems.js';
import { ReadPolicy } from '../storage/read-policy.js';

/** Files listed at most: a folder with more is listed in part (enough to tell what matches). */
export const MAX_LISTED_FILES = 20_000;

export interface ListedFile {
  /** Relative to the connection's folder, "/" separated. */
  relative: string;
  size: number;
}

/** The folder cannot be listed; `field` names the connection field to look at. */
export class SourceProblem extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export interface SourceFolder {
  /** The folder as messages name it: a path, or \\host\share\folder. */
  readonly label: string;
  /** Files below the folder (MAX_DEPTH levels), sorted by relative path. Throws SourceProblem. */
  list(): Promise<ListedFile[]>;
  read(relative: string, offset: number, length: number): Promise<Buffer>;
  close(): void;
}

type LocalConnection = z.infer<typeof LocalfileConnectionSchema>;
type SmbConnection = z.infer<typeof SmbConnectionSchema>;

const byRelative = (a: ListedFile, b: ListedFile) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0);

/**
 * A local folder, resolved as the localfile receiver resolves it. With `agentDataDirectory` the real
 * paths are checked before listing and before reading (ReadPolicy): validation refuses a folder
 * that reaches into the data directory, but a link may change between validation and the read.
 */
export function localFolder(connection: LocalConnection, agentDataDirectory?: string): SourceFolder {
  const field = connection.root_path !== undefined ? 'root_path' : 'data_directory';
  const root = path.resolve((connection.root_path ?? connection.data_directory)!);
  const policy = agentDataDirectory === undefined ? undefined : new ReadPolicy(agentDataDirectory);
  return {
    label: root,
    async list() {
      const refused = await policy?.refuseFolder(root);
      if (refused) throw new SourceProblem(refused, field);
      const found: ListedFile[] = [];
      const walk = async (dir: string, prefix: string, depth: number) => {
        for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) {
          if (found.length >= MAX_LISTED_FILES) return;
          if (isTemporaryName(entry.name)) continue;
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path.join(dir, entry.name), relative, depth + 1);
          else if (entry.isFile()) found.push({ relative, size: (await fs.promises.stat(path.join(dir, entry.name)).catch(() => ({ size: 0 }))).size });
        }
      };
      try {
        await walk(root, '', 0);
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? 'does not exist'
            : code === 'ENOTDIR'
              ? 'is not a folder'
              : code === 'EACCES' || code === 'EPERM'
                ? 'cannot be read by the user the agent runs as (permission denied)'
                : `cannot be read (${(cause as Error).message})`;
        throw new SourceProblem(`The folder ${root} ${why}: nothing is read from it until that changes.`, field);
      }
      return found.sort(byRelative);
    },
    async read(relative, offset, length) {
      const file = path.join(root, ...relative.split('/'));
      const refused = (await policy?.refuseFolder(root)) ?? (await policy?.refuseFile(file));
      if (refused) throw new SourceProblem(refused, field);
      return readRange(file, offset, length);
    },
    close() {},
  };
}

const FIELD_OF: Record<ConnectionCategory, string> = {
  auth_failed: 'username',
  host_unreachable: 'host',
  share_not_found: 'shared_folder',
  access_denied: 'shared_folder',
  source_unavailable: 'shared_folder',
  signing_required: 'host',
  encryption_required: 'shared_folder',
  dialect_refused: 'host',
};

/** A folder on a Windows share: one session, opened here, closed by close(). Throws SourceProblem. */
export async function smbFolder(connection: SmbConnection, timeoutMs: number): Promise<SourceFolder> {
  const { share, folder } = parseSharedFolder(connection.shared_folder);
  const { domain, username } = smbCredentials(connection);
  const unc = `\\\\${connection.host}\\${[share, ...folder].join('\\')}`;
  const label = { server: connection.port === 445 ? connection.host : `${connection.host}:${connection.port}`, unc, share, user: domain ? `${domain}\\${username}` : username };
  const explain = (cause: unknown, phase: 'connect' | 'list') => {
    const problem = describeProblem(cause, phase, label);
    return new SourceProblem(problem.message.replace(/\s+/g, ' ').trim(), FIELD_OF[problem.category]);
  };
  // The SMB client loads when a share is first looked at, not with every agent.
  const { SmbSession } = await import('../receivers/smb/smb-client.js');
  const session = new SmbSession({ host: connection.host, port: connection.port, domain, username, password: connection.password, share }, timeoutMs);
  try {
    await session.connect();
  } catch (cause) {
    session.close();
    throw explain(cause, 'connect');
  }
  const base = folder.join('\\');
  const at = (relative: string) => [base, ...relative.split('/')].filter(Boolean).join('\\');
  return {
    label: unc,
    async list() {
      const found: ListedFile[] = [];
      const walk = async (dir: string, prefix: string, depth: number) => {
        for (const entry of await session.list(dir)) {
          if (found.length >= MAX_LISTED_FILES) return;
          if (isTemporaryName(entry.name)) continue;
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          if (entry.isDirectory) {
            if (depth < MAX_DEPTH) await walk(dir ? `${dir}\\${entry.name}` : entry.name, relative, depth + 1);
          } else found.push({ relative, size: entry.size });
        }
      };
      try {
        await walk(base, '', 0);
      } catch (cause) {
        throw explain(cause, 'list');
      }
      return found.sort(byRelative);
    },
    read: (relative, offset, length) => session.read(at(relative), offset, length),
    close: () => session.close(),
  };
}
