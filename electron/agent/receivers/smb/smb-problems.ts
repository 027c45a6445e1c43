import { say, type AgentMessage } from '../../../../shared/config/message.js';

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
  /** In English, as the log reads it: said.text. */
  message: string;
  /** With its code (issue 57): the console writes it in the operator's language. */
  said: AgentMessage;
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
  const { server, user, share, unc } = label;
  const detail = String((error as Error).message);
  const problem = (category: ConnectionCategory, said: AgentMessage): ConnectionProblem => {
    const whole = retrySeconds === undefined ? said : say('smb.retry', '{problem} Tributary tries again in {seconds} s.', { problem: said, seconds: retrySeconds });
    return { category, message: whole.text, said: whole };
  };
  if (code === 'STATUS_LOGON_FAILURE' || code === 'STATUS_WRONG_PASSWORD')
    return problem('auth_failed', say('smb.login_wrong_password', 'The file server {server} refused the login of "{user}": wrong password, or no such user ({code}). Check username, password and domain of the connection.', { server, user, code }));
  if (AUTH.has(code))
    return problem('auth_failed', say('smb.login_refused', 'The file server {server} refused the login of "{user}" ({code}): check username, password and domain of the connection.', { server, user, code }));
  if (code === 'SMB_SIGNING_REQUIRED')
    return problem('signing_required', say('smb.signing_required', 'The file server {server} requires SMB signing and refused this session\'s unsigned requests ({error}).', { server, error: detail }));
  if (code === 'SMB_ENCRYPTION_REQUIRED')
    return problem(
      'encryption_required',
      say('smb.encryption_required', 'The share "{share}" on {server} requires SMB encryption and this connection cannot encrypt ({error}). The server must allow SMB 3.0 or later with AES-CCM or AES-GCM.', { share, server, error: detail }),
    );
  if (code === 'SMB_DIALECT_REFUSED')
    return problem(
      'dialect_refused',
      say('smb.dialect_refused', 'The file server {server} speaks no SMB version Tributary offers: {error}. Tributary speaks SMB 2.0.2 to 3.1.1; a server that allows only SMB 1 must allow SMB 2 or later.', { server, error: detail }),
    );
  if (code === 'STATUS_BAD_NETWORK_NAME')
    return problem('share_not_found', say('smb.share_not_found', 'The file server {server} has no share named "{share}": check shared_folder (share name, then sub-folder).', { server, share }));
  if (code === 'STATUS_ACCESS_DENIED' && phase !== 'read')
    return problem('access_denied', say('smb.access_denied', '"{user}" may not open {unc} (access denied): give the user read access to the share and folder.', { user, unc }));
  if (phase === 'list' && (code === 'STATUS_OBJECT_NAME_NOT_FOUND' || code === 'STATUS_OBJECT_PATH_NOT_FOUND'))
    return problem('source_unavailable', say('smb.folder_not_found', 'The folder {unc} does not exist on the share.', { unc }));
  if (phase === 'connect' && (UNREACHABLE.has(code) || code === 'ECONNABORTED'))
    return problem('host_unreachable', say('smb.host_unreachable', 'The file server {server} cannot be reached ({error}): check host, port (445 unless changed) and firewalls.', { server, error: reasonOf(error) }));
  if (code === 'SMB_ENDLESS_LISTING')
    return problem(
      'source_unavailable',
      say('smb.endless_listing', 'The file server {server} does not end the listing of {unc}: {error}. Nothing of this connection is read while it does not; a folder of more than 1,000,000 entries is not read.', { server, unc, error: detail }),
    );
  if (code === 'SMB_PROTOCOL') return problem('source_unavailable', say('smb.connection_ended', 'The connection to {server} was ended: {error}.', { server, error: detail }));
  if (classifyFileError(error) === 'source') {
    // Said whole: "Reading continues" comes after the retry.
    const said =
      retrySeconds === undefined
        ? say('smb.connection_lost', 'The connection to {server} was lost ({error}). Reading continues where it stopped.', { server, error: reasonOf(error) })
        : say('smb.connection_lost_retry', 'The connection to {server} was lost ({error}). Tributary tries again in {seconds} s. Reading continues where it stopped.', { server, error: reasonOf(error), seconds: retrySeconds });
    return { category: 'source_unavailable', message: said.text, said };
  }
  return problem('source_unavailable', say('smb.read_failed', 'Reading {unc} failed ({error}).', { unc, error: reasonOf(error) }));
}

/** Words for a failed delete (delete_completed). */
export function describeDeleteError(error: unknown, user: string): AgentMessage {
  const code = codeOf(error);
  if (code === 'STATUS_ACCESS_DENIED' || code === 'STATUS_CANNOT_DELETE' || code === 'STATUS_MEDIA_WRITE_PROTECTED')
    return say('smb.delete_access_denied', '"{user}" may not delete it (access denied). Give the user the right to delete (modify) files in this folder, or set delete_completed to false. Tributary tries again on the next look.', { user });
  if (BUSY.has(code)) return say('smb.delete_busy', 'another program has it open ({code}). Tributary tries again on the next look.', { code });
  return say('smb.delete_failed', '{error}. Tributary tries again on the next look.', { error: reasonOf(error) });
}
