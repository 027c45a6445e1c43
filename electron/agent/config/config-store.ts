import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import { describeChanges, summaryLine } from '../../../shared/config/change-summary.js';
import type { AgentMessage } from '../../../shared/config/message.js';

/** One line of history/versions.jsonl. */
export interface SavedVersion {
  file: string;
  revision: number;
  saved_by: string | null;
  summary?: string;
  changes?: AgentMessage[];
}
import type { Clock } from '../time/clock.js';
import { type SecretCodec, openSecrets, sealSecrets } from './secret-codec.js';

export const CONFIG_FILE_NAME = 'tributary.json';
/** The revision counter of the saved file: `{"revision": n, "sha256": <hash of the file it counts>, "saved_by": <token name>}`. */
const REVISION_FILE_NAME = 'tributary.revision.json';
const HISTORY_DIR = 'history';
const VERSIONS_FILE_NAME = 'versions.jsonl';
/**
 * A file changed this recently (by its own time stamps, against the clock) may change again within
 * the same time stamp tick (coarse on some file systems: 2 s on FAT) without its stat changing: its
 * load is not reused. Covers the tick and the clock's own drift from the wall clock (under 1 s).
 */
const SETTLED_MICROS = 3_000_000n;

export interface StoredConfig {
  /** The document as saved, secrets included. */
  config: unknown;
  /** Modification time of the saved file, epoch microseconds. */
  lastModifiedMicros: bigint;
  /** `YYYY-MM-DD HH:MM:SS.ffffff` form of lastModifiedMicros (meta.last_modified). */
  lastModified: string;
  /**
   * Counts saves (ETag / If-Match, meta.revision): every save gets the next number, so two quick
   * saves never share one, as they could share a modification time.
   */
  revision: number;
  /** The API token name that saved this version; null when unknown (edited by hand, older agent). */
  savedBy: string | null;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

export interface BackupState {
  last_success: string | null;
  error_code: 'unexpected_error' | null;
  error_message: string | null;
}

/** Makes the cached document read-only: a caller that modifies it would change every later load. */
function deepFreeze<T>(root: T): T {
  // Iterative, without a list of values per object: a 100,000-field range check is 100,000 arrays,
  // and the recursive form with Object.values took ~400 ms of the main thread on a busy machine.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop() as Record<string, unknown>;
    if (Object.isFrozen(value)) continue;
    Object.freeze(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) if (value[i] !== null && typeof value[i] === 'object') stack.push(value[i]);
    } else {
      for (const key in value) if (value[key] !== null && typeof value[key] === 'object') stack.push(value[key]);
    }
  }
  return root;
}

/** The saved file exists but cannot be read as JSON (edited by hand, disk fault). */
export class ConfigUnreadableError extends Error {}

function fsyncDirectory(dir: string): void {
  // Directories cannot be opened for fsync on Windows; there the rename is durable enough.
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `data` to `target` so that a crash at any moment leaves the old or the new file whole. */
export function writeFileAtomic(target: string, data: string): void {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      const bytes = Buffer.from(data, 'utf8');
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (cause) {
    // A full disk leaves a half-written temp file: it would only take more of the space.
    fs.rmSync(temp, { force: true });
    throw cause;
  }
  fsyncDirectory(dir);
}

/**
 * The configuration in `<data-dir>/conf.d/`: one JSON file replaced atomically on save, and every
 * saved version also kept in `conf.d/history/` (the config backup reported by GET /v1/status).
 * The file is mode 0600: it holds credentials.
 */
export class ConfigStore {
  private readonly file: string;
  private readonly historyDir: string;
  private backup: BackupState = { last_success: null, error_code: null, error_message: null };
  /**
   * The last load and the stat of the files it came from: the console polls status and streams
   * every few seconds, and each would otherwise read, hash and parse the whole file again.
   */
  private cached: { key: string; stored: StoredConfig } | undefined;
  /**
   * The last load with the texts it was parsed from, kept while the files are fresh: a load then
   * reads both files (a few ms) and parses only when a text differs. Parsing a 100,000-field
   * configuration is ~300 ms of the main thread, and status asked it on every call for 3 s after a
   * save (issue 50).
   */
  private fresh: { text: string; revisionText: string; stored: StoredConfig } | undefined;

  constructor(
    readonly directory: string,
    private readonly clock: Clock,
    private readonly keepVersions = 50,
    /** Encrypts password and API_key values on disk (desktop: Electron safeStorage). */
    private readonly codec?: SecretCodec,
  ) {
    this.file = path.join(directory, CONFIG_FILE_NAME);
    this.historyDir = path.join(directory, HISTORY_DIR);
    try {
      fs.mkdirSync(this.historyDir, { recursive: true, mode: 0o700 });
      this.removeStrayTempFiles();
      const newest = this.history().at(-1);
      if (newest) this.backup.last_success = new Date(Number(fs.statSync(newest).mtimeMs)).toISOString();
    } catch {
      // A full disk or a folder that cannot be created: the agent still starts, and a save says why.
    }
  }

  /** Temp files left by a crash in the middle of a save: the save never happened. */
  private removeStrayTempFiles(): void {
    for (const dir of [this.directory, this.historyDir])
      for (const name of fs.readdirSync(dir)) if (name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
  }

  exists(): boolean {
    return fs.existsSync(this.file);
  }

  /** The counter as last written, and the hash of the file it counted. */
  private readRevision(): { revision: number; sha256: string | undefined; savedBy: string | null } {
    try {
      const saved = JSON.parse(fs.readFileSync(path.join(this.directory, REVISION_FILE_NAME), 'utf8')) as { revision?: unknown; sha256?: unknown; saved_by?: unknown };
      return {
        revision: Number.isSafeInteger(saved.revision) ? (saved.revision as number) : 0,
        sha256: typeof saved.sha256 === 'string' ? saved.sha256 : undefined,
        savedBy: typeof saved.saved_by === 'string' ? saved.saved_by : null,
      };
    } catch {
      return { revision: 0, sha256: undefined, savedBy: null };
    }
  }

  /**
   * The revision of the file with this text: the counter when it counted this very text; one more
   * when the file changed without it (edited by hand, or a crash between the two writes of a save),
   * so that a client holding the older revision is refused.
   */
  private revisionOf(text: string): { revision: number; savedBy: string | null } {
    const counted = this.readRevision();
    return counted.sha256 === sha256(text) ? { revision: counted.revision, savedBy: counted.savedBy } : { revision: counted.revision + 1, savedBy: null };
  }

  /**
   * What identifies a version of the saved file and of the revision counter without reading them:
   * inode, size, modification and change time of each (an atomic save is a new inode; an edit in
   * place changes the size or the times). Undefined when no configuration was saved.
   */
  private versionKey(): { key: string; changedMicros: bigint } | undefined {
    const stat = (file: string) => {
      try {
        return fs.statSync(file, { bigint: true });
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw cause;
      }
    };
    const config = stat(this.file);
    if (!config) return undefined;
    const revision = stat(path.join(this.directory, REVISION_FILE_NAME));
    let newest = 0n;
    for (const s of [config, revision]) for (const time of s ? [s.mtimeNs, s.ctimeNs] : []) if (time > newest) newest = time;
    const key = [config, revision].map((s) => (s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-')).join('/');
    return { key, changedMicros: newest / 1000n };
  }

  /**
   * What identifies the saved version without reading it (two stats): equal keys, the same version.
   * An atomic save is a new inode, so a save in between always changes the key.
   */
  versionId(): string | undefined {
    return this.versionKey()?.key;
  }

  /**
   * The saved configuration, or undefined when none was saved yet. Read and parsed again only when
   * the file (or the revision counter) changed since the last load: two stats otherwise. The
   * document returned is shared between calls and frozen: copy it to change it.
   */
  load(): StoredConfig | undefined {
    const version = this.versionKey();
    if (!version) {
      this.cached = undefined;
      return undefined;
    }
    if (this.cached?.key === version.key) return this.cached.stored;
    const stored = this.read();
    if (!stored) return undefined;
    // Not kept while the files are this fresh: a change in the same time stamp tick would look unchanged.
    this.cached = this.clock.nowMicros() - version.changedMicros > SETTLED_MICROS ? { key: version.key, stored } : undefined;
    // Settled: the stat key alone tells from now on; the texts need not be kept.
    if (this.cached) this.fresh = undefined;
    return stored;
  }

  private read(): StoredConfig | undefined {
    let text: string;
    let stat: fs.BigIntStats;
    let revisionText: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
      stat = fs.statSync(this.file, { bigint: true });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw cause;
    }
    try {
      revisionText = fs.readFileSync(path.join(this.directory, REVISION_FILE_NAME), 'utf8');
    } catch {
      revisionText = '';
    }
    const micros = stat.mtimeNs / 1000n;
    const known = this.fresh;
    if (known && known.text === text && known.revisionText === revisionText && known.stored.lastModifiedMicros === micros) return known.stored;
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch (cause) {
      throw new ConfigUnreadableError(
        `${this.file} is not valid JSON (${(cause as Error).message}). Fix it, or copy a good version from ${this.historyDir}.`,
      );
    }
    try {
      config = openSecrets(config, this.codec);
    } catch (cause) {
      throw new ConfigUnreadableError(`${this.file}: ${(cause as Error).message}`);
    }
    deepFreeze(config);
    const stored = { config, lastModifiedMicros: micros, lastModified: formatSpecTimestamp(micros), ...this.revisionOf(text) };
    this.fresh = { text, revisionText, stored };
    return stored;
  }

  /**
   * Saves atomically as the next revision after `previous` (the one loaded for this save; without
   * it, the counter's); keeps the version in history. Returns what load() will return, without
   * reading the file again. `savedBy`: the API token name, recorded with the version.
   */
  save(config: unknown, previous?: StoredConfig, savedBy: string | null = null): StoredConfig {
    const text = `${JSON.stringify(this.codec ? sealSecrets(config, this.codec) : config, null, 2)}\n`;
    const revision = (previous?.revision ?? this.readRevision().revision) + 1;
    this.cached = undefined;
    fs.mkdirSync(this.historyDir, { recursive: true, mode: 0o700 });
    // What this version changed against the one before, in one line (the history lists it: issue 56).
    let before = previous?.config;
    try {
      before ??= this.load()?.config;
    } catch {
      // An unreadable saved file: this version's summary says what it holds.
    }
    this.writeHistory(text, revision, savedBy, describeChanges(before, config));
    writeFileAtomic(this.file, text);
    // After the file: a crash in between (or no room for the counter) leaves the old counter, and
    // load() counts the new file one more: the save stands.
    const revisionText = `${JSON.stringify({ revision, sha256: sha256(text), saved_by: savedBy })}\n`;
    try {
      writeFileAtomic(path.join(this.directory, REVISION_FILE_NAME), revisionText);
    } catch {
      // See above.
    }
    const micros = fs.statSync(this.file, { bigint: true }).mtimeNs / 1000n;
    const stored = { config, lastModifiedMicros: micros, lastModified: formatSpecTimestamp(micros), revision, savedBy };
    // What load() would parse from these texts is this document: the first load after a save (GET
    // /v1/status asks it) compares the texts instead of parsing and freezing megabytes again.
    if (config !== null && typeof config === 'object') this.fresh = { text, revisionText, stored: { ...stored, config: deepFreeze(config) } };
    return stored;
  }

  backupState(): BackupState {
    return { ...this.backup };
  }

  /** Saved versions, oldest first. */
  history(): string[] {
    if (!fs.existsSync(this.historyDir)) return [];
    return fs
      .readdirSync(this.historyDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => path.join(this.historyDir, name));
  }

  /**
   * Who saved which version: `history/versions.jsonl`, one line per kept version
   * (`{"file", "revision", "saved_by"}`), pruned with the versions.
   */
  savedVersions(): SavedVersion[] {
    try {
      return fs
        .readFileSync(path.join(this.historyDir, VERSIONS_FILE_NAME), 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as SavedVersion];
          } catch {
            return [];
          }
        });
    } catch {
      return [];
    }
  }

  /** One kept version (a name from savedVersions()) as saved, secrets opened; undefined when gone or unreadable. */
  openVersion(file: string): { config: unknown; size: number } | undefined {
    if (path.basename(file) !== file) return undefined;
    try {
      const text = fs.readFileSync(path.join(this.historyDir, file), 'utf8');
      return { config: openSecrets(JSON.parse(text), this.codec), size: Buffer.byteLength(text) };
    } catch {
      return undefined;
    }
  }

  private writeHistory(text: string, revision: number, savedBy: string | null, changes: AgentMessage[]): void {
    // The line in English for tools, and its phrases with their codes for the console (issue 57).
    const summary = summaryLine(changes, true);
    try {
      const stamp = formatSpecTimestamp(this.clock.nowMicros()).replace(/[-: ]/g, '').replace('.', '-');
      writeFileAtomic(path.join(this.historyDir, `${stamp}.json`), text);
      const entries = [...this.savedVersions(), { file: `${stamp}.json`, revision, saved_by: savedBy, summary, changes }].slice(-this.keepVersions);
      writeFileAtomic(path.join(this.historyDir, VERSIONS_FILE_NAME), entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      const versions = this.history();
      for (const old of versions.slice(0, Math.max(0, versions.length - this.keepVersions))) fs.rmSync(old, { force: true });
      this.backup = { last_success: new Date().toISOString(), error_code: null, error_message: null };
    } catch (cause) {
      this.backup = { ...this.backup, error_code: 'unexpected_error', error_message: `Could not keep a copy of the configuration: ${(cause as Error).message}` };
    }
  }
}
