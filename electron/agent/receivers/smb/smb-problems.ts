/**
 * SMB errors in the words of a plant engineer: which marker category, what is wrong, what to do.
 */

/** Marker categories of a connection's problem; at most one per connection at a time. */
export const CONNECTION_CATEGORIES = [
  'auth_failed',
  'share_not_found',
  'access_denied',
  'host_unreachable',
  'source_unavailable',
  'signing_required',
  'encryption_required',
  'dialect_refused',
] as const;
export type ConnectionCategory = (typeof CONNECTION_CATEGORIES)[number];

export interface ConnectionProblem {
  category: ConnectionCategory;
  message: string;
}

/** Where in a poll an error happened: connecting (TCP, login, share), listing the folder, or later. */
export type Phase = 'connect' | 'list' | 'read';

export interface ConnectionLabel {
  /** host:port */
  server: string;
  /** \\host\share\folder */
  unc: string;
  share: string;
  /** DOMAIN\user or user */
  user: string;
}

const AUTH = new Set([
  'STATUS_LOGON_FAILURE',
  'STATUS_WRONG_PASSWORD',
  'STATUS_NO_SUCH_USER',
  'STATUS_ACCOUNT_DISABLED',
  'STATUS_ACCOUNT_LOCKED_OUT',
  'STATUS_ACCOUNT_RESTRICTION',
  'STATUS_ACCOUNT_EXPIRED',
  'STATUS_PASSWORD_EXPIRED',
  'STATUS_PASSWORD_MUST_CHANGE',
  'STATUS_INVALID_LOGON_HOURS',
  'STATUS_INVALID_WORKSTATION',
]);
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);
/** The session is gone: stop this poll, reconnect later. */
const SESSION_LOST = new Set(['STATUS_NETWORK_NAME_DELETED', 'STATUS_USER_SESSION_DELETED', 'STATUS_NETWORK_SESSION_EXPIRED', 'STATUS_CONNECTION_DISCONNECTED']);
/** Another program holds the file: look again later, it is not an error of ours. */
const BUSY = new Set(['STATUS_SHARING_VIOLATION', 'STATUS_FILE_LOCK_CONFLICT', 'STATUS_LOCK_NOT_GRANTED']);

const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? '');
const reasonOf = (error: unknown) => {
  const code = codeOf(error);
  return code.startsWith('STATUS_') ? code : (error as Error).message;
};

/** How a file-level error affects the poll: the whole connection, a busy file, or just this file. */
export function classifyFileError(error: unknown): 'source' | 'busy' | 'file' {
  const code = codeOf(error);
  if (BUSY.has(code)) return 'busy';
  if (SESSION_LOST.has(code) || /^E[A-Z]+$/.test(code) || code.startsWith('SMB_')) return 'source';
  return 'file';
}

/**
 * The marker for an error that stopped a connection's poll. `retrySeconds`: when it is tried again
 * (left out when nothing retries, e.g. a check while validating).
 */
export function describeProblem(error: unknown, phase: Phase, label: ConnectionLabel, retrySeconds?: number): ConnectionProblem {
  const code = codeOf(error);
  const again = retrySeconds === undefined ? '' : `Tributary tries again in ${retrySeconds} s.`;
  if (code === 'STATUS_LOGON_FAILURE' || code === 'STATUS_WRONG_PASSWORD')
    return {
      category: 'auth_failed',
      message: `The file server ${label.server} refused the login of "${label.user}": wrong password, or no such user (${code}). Check username, password and domain of the connection. ${again}`,
    };
  if (AUTH.has(code))
    return { category: 'auth_failed', message: `The file server ${label.server} refused the login of "${label.user}" (${code}): check username, password and domain of the connection. ${again}` };
  if (code === 'SMB_SIGNING_REQUIRED')
    return {
      category: 'signing_required',
      message: `The file server ${label.server} requires SMB signing and refused this session's unsigned requests (${(error as Error).message}). ${again}`,
    };
  if (code === 'SMB_ENCRYPTION_REQUIRED')
    return {
      category: 'encryption_required',
      message: `The share "${label.share}" on ${label.server} requires SMB encryption and this connection cannot encrypt (${(error as Error).message}). The server must allow SMB 3.0 or later with AES-CCM or AES-GCM. ${again}`,
    };
  if (code === 'SMB_DIALECT_REFUSED')
    return {
      category: 'dialect_refused',
      message: `The file server ${label.server} speaks no SMB version Tributary offers: ${(error as Error).message}. Tributary speaks SMB 2.0.2 to 3.1.1; a server that allows only SMB 1 must allow SMB 2 or later. ${again}`,
    };
  if (code === 'STATUS_BAD_NETWORK_NAME')
    return { category: 'share_not_found', message: `The file server ${label.server} has no share named "${label.share}": check shared_folder (share name, then sub-folder). ${again}` };
  if (code === 'STATUS_ACCESS_DENIED' && phase !== 'read')
    return {
      category: 'access_denied',
      message: `"${label.user}" may not open ${label.unc} (access denied): give the user read access to the share and folder. ${again}`,
    };
  if (phase === 'list' && (code === 'STATUS_OBJECT_NAME_NOT_FOUND' || code === 'STATUS_OBJECT_PATH_NOT_FOUND'))
    return { category: 'source_unavailable', message: `The folder ${label.unc} does not exist on the share. ${again}` };
  if (phase === 'connect' && (UNREACHABLE.has(code) || code === 'ECONNABORTED'))
    return { category: 'host_unreachable', message: `The file server ${label.server} cannot be reached (${reasonOf(error)}): check host, port (445 unless changed) and firewalls. ${again}` };
  if (code === 'SMB_ENDLESS_LISTING')
    return {
      category: 'source_unavailable',
      message: `The file server ${label.server} does not end the listing of ${label.unc}: ${(error as Error).message}. Nothing of this connection is read while it does not; a folder of more than 1,000,000 entries is not read. ${again}`,
    };
  if (code === 'SMB_PROTOCOL')
    return { category: 'source_unavailable', message: `The connection to ${label.server} was ended: ${(error as Error).message}. ${again}` };
  if (classifyFileError(error) === 'source')
    return { category: 'source_unavailable', message: `The connection to ${label.server} was lost (${reasonOf(error)}). ${again} Reading continues where it stopped.` };
  return { category: 'source_unavailable', message: `Reading ${label.unc} failed (${reasonOf(error)}). ${again}` };
}

/** Words for a failed delete (delete_completed). */
export function describeDeleteError(error: unknown, user: string): string {
  const code = codeOf(error);
  if (code === 'STATUS_ACCESS_DENIED' || code === 'STATUS_CANNOT_DELETE' || code === 'STATUS_MEDIA_WRITE_PROTECTED')
    return `"${user}" may not delete it (access denied). Give the user the right to delete (modify) files in this folder, or set delete_completed to false. Tributary tries again on the next look.`;
  if (BUSY.has(code)) return `another program has it open (${code}). Tributary tries again on the next look.`;
  return `${reasonOf(error)}. Tributary tries again on the next look.`;
}
