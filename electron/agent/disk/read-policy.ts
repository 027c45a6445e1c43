import os from 'node:os';
import path from 'node:path';
import { AGENT_FOLDERS, isSystemFolder } from '../../../shared/config/path-policy.js';
import { parseSharedFolder } from '../../../shared/config/receivers/smb/rules.js';
import { realPath, within } from './real-paths.js';
import { say, type AgentMessage } from '../../../shared/config/message.js';

export { realPath };


/**
 * Why a receiver or a preview must not read below `folder` (both real paths), or undefined. Off
 * limits: the data directory itself (its top-level files such as api-token) and every folder above
 * it, whose listing would reach into it, and the agent's own folders in it (conf.d with its
 * history, state, logs, components). Other folders in the data directory (the demo's drop folder,
 * csv output) may be read. docs/decisions/0033-data-directory-off-limits.md.
 */
export function dataDirectoryReach(folder: string, dataDirectory: string): AgentMessage | undefined {
  if (within(dataDirectory, folder))
    return folder === dataDirectory
      ? say('read.is_data_directory', 'is the agent\'s data directory')
      : say('read.contains_data_directory', 'contains the agent\'s data directory {data_directory}', { data_directory: dataDirectory });
  const own = AGENT_FOLDERS.find((name) => within(folder, path.join(dataDirectory, name)));
  return own ? ownFolder(own, path.join(dataDirectory, own)) : undefined;
}

const ownFolder = (folder: string, at: string) => say('read.inside_own_folder', 'is inside the agent\'s own {folder} folder ({path})', { folder, path: at });

/**
 * The words of a refusal: `label` as the operator wrote it, `real` its real path, `reach` from
 * dataDirectoryReach; the advice for a folder (point it elsewhere) or a file (keep it outside).
 */
export function readRefusal(label: string, real: string, reach: AgentMessage, of: 'folder' | 'file' = 'folder'): AgentMessage {
  const same = path.resolve(label.replace(/^"|"$/g, '')) === real;
  if (of === 'file')
    return same
      ? say('read.file_refused', '{label} {reach}, where the agent keeps its configuration, secrets and state: receivers and preview never read there. Keep files the agent should read outside it.', { label, reach })
      : say('read.file_refused_real', '{label} (its real path is {real}) {reach}, where the agent keeps its configuration, secrets and state: receivers and preview never read there. Keep files the agent should read outside it.', { label, real, reach });
  return same
    ? say('read.folder_refused', '{label} {reach}, where the agent keeps its configuration, secrets and state: receivers and preview never read there. Point it at the folder the machines write to.', { label, reach })
    : say('read.folder_refused_real', '{label} (its real path is {real}) {reach}, where the agent keeps its configuration, secrets and state: receivers and preview never read there. Point it at the folder the machines write to.', { label, real, reach });
}

/**
 * Where file receivers and the preview may read and delete, checked on real paths right before the
 * work (a link made after the configuration was saved counts). Validation says the same when a
 * configuration is checked (config/real-path-rules.ts); this holds for a configuration saved before
 * the rule too.
 */
export class ReadPolicy {
  private readonly dataDirectory: string;
  /** The data directory's real path, looked up once (it is the agent's own; reads check it per file). */
  private realData: string | undefined;

  constructor(dataDirectory: string) {
    this.dataDirectory = path.resolve(dataDirectory);
  }

  private async data(): Promise<string> {
    this.realData ??= await realPath(this.dataDirectory);
    return this.realData;
  }

  /** Why nothing below `folder` may be read, or undefined when it may. */
  async refuseFolder(folder: string): Promise<AgentMessage | undefined> {
    const [real, data] = await Promise.all([realPath(folder), this.data()]);
    const reach = dataDirectoryReach(real, data);
    return reach && readRefusal(folder, real, reach);
  }

  /** Why this file may not be read (its real path leads into the data directory's own parts), or undefined. */
  async refuseFile(file: string): Promise<AgentMessage | undefined> {
    const [real, data] = await Promise.all([realPath(file), this.data()]);
    const own = AGENT_FOLDERS.find((name) => within(real, path.join(data, name)));
    const reach =
      path.dirname(real) === data
        ? say('read.file_of_data_directory', 'is a file of the agent\'s data directory')
        : own
          ? ownFolder(own, path.join(data, own))
          : undefined;
    return reach && readRefusal(file, real, reach, 'file');
  }

  /** Why files of `folder` may not be deleted (delete_completed), or undefined. */
  async refuseDelete(folder: string): Promise<AgentMessage | undefined> {
    const refused = await this.refuseFolder(folder);
    if (refused) return refused;
    const real = await realPath(folder);
    if (!isSystemFolder(real)) return undefined;
    return path.resolve(folder) === real
      ? say('read.delete_system_folder', 'delete_completed would delete files from {folder}, a folder of the operating system. Tributary refuses that: nothing is read or deleted there. Read from a folder of your own, or turn delete_completed off.', { folder })
      : say('read.delete_system_folder_real', 'delete_completed would delete files from {folder} (its real path is {real}), a folder of the operating system. Tributary refuses that: nothing is read or deleted there. Read from a folder of your own, or turn delete_completed off.', { folder, real });
  }
}

/** Whether `host` names this PC (an SMB share there may be one of its own folders). */
export function isLocalHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name === '::1' || name === '.' || /^127\./.test(name) || name === os.hostname().toLowerCase()) return true;
  return Object.values(os.networkInterfaces()).some((list) => list?.some((address) => address.address.toLowerCase() === name));
}

/**
 * The local folder an SMB connection reaches when that can be known: an administrative share (C$,
 * D$ …) of this PC is that drive on Windows. Other shares of this PC are defined in the file
 * server's own settings, which the agent cannot see (docs/security.md).
 */
export function localFolderOfShare(host: string, sharedFolder: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32' || !isLocalHost(host)) return undefined;
  const { share, folder } = parseSharedFolder(sharedFolder);
  const drive = /^([a-z])\$$/i.exec(share)?.[1];
  return drive ? `${drive.toUpperCase()}:\\${folder.join('\\')}` : undefined;
}
