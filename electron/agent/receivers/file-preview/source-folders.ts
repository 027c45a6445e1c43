/**
 * The folders of a file receiver's connections (a local folder or a Windows share), opened briefly
 * for validation and preview: list the files as the receiver would see them, read a few bytes of
 * one. Nothing here keeps progress or touches the store.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { LocalfileConnectionSchema, SmbConnectionSchema } from '../../../../shared/config/schema.js';
import { parseSharedFolder, smbCredentials } from '../../../../shared/config/receivers/smb/rules.js';
import { MAX_DEPTH } from '../file-source/file-discovery.js';
import { readRange } from '../file-source/read-range.js';
import { isTemporaryName } from '../file-source/glob.js';
import { type ConnectionCategory, describeProblem } from '../smb/smb-problems.js';
import { ReadPolicy } from '../../disk/read-policy.js';

/** Files listed at most: a folder with more is listed in part (enough to tell what matches). */
export const MAX_LISTED_FILES = 20_000;
/** How long a listing for validation or preview may take: after that it is a sample (`partial`). */
export const LIST_BUDGET_MS = 1500;
/** Subfolders of a local folder listed at once. */
const LIST_CONCURRENCY = 4;

export interface ListedFile {
  /** Relative to the connection's folder, "/" separated. */
  relative: string;
  /** From the listing where it comes free (shares); local files are not looked at one by one. */
  size?: number;
}

/** What a listing found: bounded in files and time, so validation and preview stay quick whatever the folder holds. */
export interface FolderListing {
  /** Sorted by relative path. */
  files: ListedFile[];
  /** Listed in part (MAX_LISTED_FILES or LIST_BUDGET_MS reached): absence of a match proves nothing. */
  partial: boolean;
  /** Subfolders that could not be read (skipped, the rest is listed), with why. */
  skipped: { folder: string; why: string }[];
}

/** The folder cannot be listed; `field` names the connection field to look at. */
export class SourceProblem extends Error {
  constructor(
    /** With its code (issue 57): the preview shows it in the console's language. */
    readonly said: AgentMessage,
    readonly field: string,
  ) {
    super(said.text);
  }
}

export interface SourceFolder {
  /** The folder as messages name it: a path, or \\host\share\folder. */
  readonly label: string;
  /** Files below the folder (MAX_DEPTH levels), a bounded sample of them in a big folder. Throws SourceProblem. */
  list(): Promise<FolderListing>;
  /** The size of one listed file. */
  size(relative: string): Promise<number>;
  read(relative: string, offset: number, length: number): Promise<Buffer>;
  close(): void;
}

type LocalConnection = z.infer<typeof LocalfileConnectionSchema>;
type SmbConnection = z.infer<typeof SmbConnectionSchema>;

const byRelative = (a: ListedFile, b: ListedFile) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0);

/** What a file system error says about a path, once for the three messages below. */
function errorKind(cause: unknown): 'missing' | 'not_folder' | 'denied' | 'other' {
  const code = (cause as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'missing' : code === 'ENOTDIR' ? 'not_folder' : code === 'EACCES' || code === 'EPERM' ? 'denied' : 'other';
}

/** Why a subfolder was skipped, in words for the listing's callers. */
function describeFolderError(cause: unknown): string {
  const words = { missing: 'does not exist', not_folder: 'is not a folder', denied: 'cannot be read (permission denied)', other: `cannot be read (${(cause as Error).message})` };
  return words[errorKind(cause)];
}

function fileProblem(file: string, cause: unknown, field: string): never {
  const kind = errorKind(cause);
  if (kind === 'missing') throw new SourceProblem(say('preview.file_gone', 'The file {file} is gone (removed after it was listed).', { file }), field);
  if (kind === 'not_folder') throw new SourceProblem(say('preview.file_not_folder', 'The file {file} is not a folder.', { file }), field);
  if (kind === 'denied') throw new SourceProblem(say('preview.file_denied', 'The file {file} cannot be read (permission denied).', { file }), field);
  throw new SourceProblem(say('preview.file_unreadable', 'The file {file} cannot be read ({error}).', { file, error: (cause as Error).message }), field);
}

/** A folder that cannot be listed, in words (nothing is read from it until that changes). */
function folderProblem(root: string, cause: unknown, field: string): SourceProblem {
  const kind = errorKind(cause);
  if (kind === 'missing') return new SourceProblem(say('preview.folder_missing', 'The folder {folder} does not exist: nothing is read from it until that changes.', { folder: root }), field);
  if (kind === 'not_folder') return new SourceProblem(say('preview.folder_not_folder', 'The folder {folder} is not a folder: nothing is read from it until that changes.', { folder: root }), field);
  if (kind === 'denied')
    return new SourceProblem(say('preview.folder_denied', 'The folder {folder} cannot be read by the user the agent runs as (permission denied): nothing is read from it until that changes.', { folder: root }), field);
  return new SourceProblem(say('preview.folder_unreadable', 'The folder {folder} cannot be read ({error}): nothing is read from it until that changes.', { folder: root, error: (cause as Error).message }), field);
}

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
      const skipped: FolderListing['skipped'] = [];
      const giveUpAt = Date.now() + LIST_BUDGET_MS;
      const full = () => found.length >= MAX_LISTED_FILES || Date.now() >= giveUpAt;
      let partial = false;
      // Folders waiting to be listed, a few at once: names only (no stat per file), bounded in count and time.
      const waiting: { dir: string; prefix: string; depth: number }[] = [{ dir: root, prefix: '', depth: 0 }];
      const listOne = async ({ dir, prefix, depth }: (typeof waiting)[number]) => {
        let entries: fs.Dirent[];
        try {
          entries = await fs.promises.readdir(dir, { withFileTypes: true });
        } catch (cause) {
          if (depth === 0) throw cause;
          skipped.push({ folder: dir, why: describeFolderError(cause) });
          return;
        }
        for (const entry of entries) {
          if (found.length >= MAX_LISTED_FILES) return void (partial = true);
          if (isTemporaryName(entry.name)) continue;
          const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
          if (entry.isDirectory() && depth < MAX_DEPTH) waiting.push({ dir: path.join(dir, entry.name), prefix: relative, depth: depth + 1 });
          else if (entry.isFile()) found.push({ relative });
        }
      };
      const worker = async () => {
        for (let next = waiting.shift(); next; next = waiting.shift()) {
          if (full()) return void (partial = true);
          await listOne(next);
        }
      };
      let timer: NodeJS.Timeout | undefined;
      // A folder that does not answer (a stale network mount) ends the listing at the budget too.
      const budget = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), LIST_BUDGET_MS)));
      try {
        const all = (async () => {
          await listOne(waiting.shift()!);
          await Promise.all(Array.from({ length: LIST_CONCURRENCY }, worker));
        })();
        all.catch(() => undefined); // a late failure, after the budget, is nobody's answer
        if ((await Promise.race([all, budget])) === 'late') partial = true;
      } catch (cause) {
        throw folderProblem(root, cause, field);
      } finally {
        clearTimeout(timer);
      }
      return { files: [...found].sort(byRelative), partial: partial || waiting.length > 0, skipped: [...skipped] };
    },
    // A file listed a moment ago may be gone (delete_completed, a machine's rewrite): a problem of
    // the preview, in words, not an unexpected error.
    size: async (relative) => {
      const file = path.join(root, ...relative.split('/'));
      return (await fs.promises.stat(file).catch((cause) => fileProblem(file, cause, field))).size;
    },
    async read(relative, offset, length) {
      const file = path.join(root, ...relative.split('/'));
      const refused = (await policy?.refuseFolder(root)) ?? (await policy?.refuseFile(file));
      if (refused) throw new SourceProblem(refused, field);
      return readRange(file, offset, length).catch((cause) => fileProblem(file, cause, field));
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
    return new SourceProblem(problem.said, FIELD_OF[problem.category]);
  };
  // The SMB client loads when a share is first looked at, not with every agent.
  const { SmbSession } = await import('../smb/smb-client.js');
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
      const giveUpAt = Date.now() + LIST_BUDGET_MS;
      let partial = false;
      const walk = async (dir: string, prefix: string, depth: number) => {
        if (Date.now() >= giveUpAt) return void (partial = true);
        for (const entry of await session.list(dir)) {
          if (found.length >= MAX_LISTED_FILES) return void (partial = true);
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
      return { files: found.sort(byRelative), partial, skipped: [] };
    },
    size: async (relative) => (await session.stat(at(relative))).size,
    read: (relative, offset, length) => session.read(at(relative), offset, length),
    close: () => session.close(),
  };
}
