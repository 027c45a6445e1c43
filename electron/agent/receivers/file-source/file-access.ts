import type { AgentMessage } from '../../../../shared/config/message.js';

/** One file as a listing saw it. `path` is its identity in progress and logs. */
export interface ListedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** How the bytes of a source are reached: a local folder or a network share. */
export interface FileAccess {
  readPrefix(path: string, length: number): Promise<Buffer>;
  /** Remote sources hand bytes to the parse worker; without it the worker reads the local file. */
  readRange?(path: string, offset: number, length: number): Promise<Buffer>;
  exists(path: string): Promise<boolean>;
  remove(path: string): Promise<void>;
  /**
   * Size and modification time looked up right before reading, where a listing may lag behind the
   * file (Windows updates directory entries of open files late). Undefined: the file is gone.
   */
  confirm?(path: string): Promise<{ size: number; mtimeMs: number } | undefined>;
  /**
   * `source`: the whole source failed (connection lost): the error ends the scan. `busy`: look
   * again later.
   */
  classify?(error: unknown): 'source' | 'busy' | 'file';
  /** Words for a failed delete that a plant engineer understands. */
  describeDeleteError?(error: unknown): AgentMessage;
}
