/**
 * Where the agent may read, delete and write (docs/security.md, "Paths"). Reading a system folder
 * is allowed but warned about; deleting from one (delete_completed) is an error; CSV output goes to
 * the agent's data directory, or to folders the operator allowed (`--allow-write DIR`, desktop:
 * `allowWrite` in desktop.json), never into the agent's own conf.d, state, logs or components.
 *
 * Pure (no Node): paths are worked out as text, for POSIX and Windows, so that the agent and the
 * console judge a path the same way.
 */
import type { ConfigurationDocument as Configuration } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from './violations.js';
import { receiverFilesOf } from './receivers/derive.js';

export type PathFlavour = 'posix' | 'win32';

/** What the agent knows about where it runs; without it only what needs no context is checked. */
export interface PathContext {
  /** The agent's data directory, absolute. */
  dataDirectory: string;
  /** Folders besides the data directory where CSV output may go (absolute). */
  allowWrite?: readonly string[];
  flavour?: PathFlavour;
}

/** Folders of the agent itself inside its data directory: nothing is ever written there by a transmit. */
export const AGENT_FOLDERS = ['conf.d', 'state', 'logs', 'components'] as const;

const POSIX_SYSTEM = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run', '/sbin', '/sys', '/usr', '/var/lib', '/var/spool', '/System', '/Library', '/private/etc'];
const WINDOWS_SYSTEM = ['windows', 'program files', 'program files (x86)', 'programdata/microsoft'];

/** The flavour a path is written in: a drive letter or a UNC prefix means Windows. */
export function flavourOf(text: string, fallback: PathFlavour = 'posix'): PathFlavour {
  return /^[A-Za-z]:[\\/]|^\\\\/.test(text) ? 'win32' : fallback;
}

export function isAbsolutePath(text: string): boolean {
  return text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith('\\\\');
}

/**
 * `text` resolved against `base` (when relative) with `.` and `..` worked out, "/"-separated;
 * Windows paths lower-cased (their names ignore case). A `..` above the root stays at the root.
 */
export function normalizePath(text: string, base = '/', flavour: PathFlavour = flavourOf(text, flavourOf(base))): string {
  const joined = isAbsolutePath(text) ? text : `${base}/${text}`;
  const unified = flavour === 'win32' ? joined.replace(/\\/g, '/').toLowerCase() : joined;
  const root = flavour === 'win32' ? (/^([a-z]:)\//.exec(unified)?.[1] ?? (unified.startsWith('//') ? '/' : '')) : '';
  const rest = unified.slice(root.length);
  const parts: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `${root}/${parts.join('/')}`;
}

/** Whether `inner` is `outer` or inside it (both normalized). */
export function isWithin(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  return inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

/** `/`, or a Windows drive root such as `C:\`. */
export function isFilesystemRoot(text: string): boolean {
  const normal = normalizePath(text);
  return normal === '/' || /^[a-z]:\/$/.test(normal);
}

/** A folder of the operating system (or the root): reading it is odd, deleting from it is refused. */
export function isSystemFolder(text: string): boolean {
  if (!isAbsolutePath(text)) return false;
  if (isFilesystemRoot(text)) return true;
  const flavour = flavourOf(text);
  const normal = normalizePath(text, '/', flavour);
  if (flavour === 'win32') {
    const underDrive = normal.replace(/^[a-z]:\//, '');
    return WINDOWS_SYSTEM.some((folder) => underDrive === folder || underDrive.startsWith(`${folder}/`));
  }
  return POSIX_SYSTEM.some((folder) => isWithin(normal, folder));
}

function receiverPathViolations(config: Pick<Configuration, 'data_receiver'>): Violation[] {
  const out: Violation[] = [];
  config.data_receiver.forEach((receiver, r) => {
    // Local folders only: a share's folder names no folder of this computer.
    const files = receiverFilesOf(receiver?.protocol);
    if (!receiver || !files || files.share) return;
    receiver.connections.forEach((item, k) => {
      const connection = item as Record<string, unknown>;
      const field = files.folderField(connection);
      const folder = connection[field];
      if (typeof folder !== 'string' || !isSystemFolder(folder)) return;
      const at: JsonPath = ['data_receiver', r, 'connections', k, field];
      out.push(
        warning(
          at,
          isFilesystemRoot(folder)
            ? say('path.filesystem_root', '"{folder}" is the root of the file system: the receiver lists the whole computer. Point it at the folder the machines write to.', { folder })
            : say('path.system_folder', '"{folder}" is a folder of the operating system, not one machines write to. Check that this is the folder you mean.', { folder }),
        ),
      );
      if ('delete_completed' in receiver && receiver.delete_completed)
        out.push(error(['data_receiver', r, 'delete_completed'], say('path.delete_completed_would_delete_files', 'delete_completed would delete files from "{folder}", a folder of the operating system. Tributary refuses that; read from a folder of your own, or turn delete_completed off.', { folder })));
    });
  });
  return out;
}

function transmitPathViolations(config: Pick<Configuration, 'data_transmit'>, context: PathContext): Violation[] {
  const out: Violation[] = [];
  const flavour = context.flavour ?? flavourOf(context.dataDirectory);
  const data = normalizePath(context.dataDirectory, '/', flavour);
  const allowed = (context.allowWrite ?? []).map((folder) => normalizePath(folder, '/', flavour));
  config.data_transmit.forEach((transmit, t) => {
    if (transmit?.transmit_type !== 'csv') return;
    const written = transmit.directory ?? 'outbox';
    const target = normalizePath(written, data, flavour);
    const at: JsonPath = ['data_transmit', t, 'directory'];
    const own = AGENT_FOLDERS.find((folder) => isWithin(target, `${data === '/' ? '' : data}/${folder}`));
    if (own) out.push(error(at, say('path.inside_agent_own_folder', '"{written}" is inside the agent\'s own {own} folder ({target}). Write CSV files somewhere else, e.g. "outbox".', { written, own, target })));
    else if (!isWithin(target, data) && !allowed.some((folder) => isWithin(target, folder)))
      out.push(
        error(
          at,
          say('path.outside_agent_data_directory', '"{written}" ({target}) is outside the agent\'s data directory {data}. CSV files are written there only, unless the operator allows the folder: start with --allow-write {target} (desktop: "allowWrite" in desktop.json).', { written, target, data }),
        ),
      );
  });
  return out;
}

/**
 * Path rules of a parsed configuration. Without `context` (the console, which does not know the
 * agent's data directory) only the rules that need none: system folders of receivers.
 */
export function pathViolations(config: Pick<Configuration, 'data_receiver' | 'data_transmit'>, context?: PathContext): Violation[] {
  return [...receiverPathViolations(config), ...(context ? transmitPathViolations(config, context) : [])];
}
