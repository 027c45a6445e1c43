/**
 * What an smb connection means beyond its schema: how shared_folder splits into share and folder,
 * how a "DOMAIN\user" user name is read, and the semantic rules that catch the usual mistakes
 * (a UNC path in shared_folder, a port in host).
 */
import type { z } from 'zod';
import type { SmbConnectionSchema } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';

type SmbConnection = z.infer<typeof SmbConnectionSchema>;

/** Characters Windows does not allow in a share name. */
const BAD_SHARE_CHARACTERS = /["[\]:|<>+=;,*?/\\]/;

/**
 * `machines/line1`, `machines\line1` or `/machines/line1/` → share `machines`, folder `["line1"]`.
 * Empty segments are dropped; the share is the first one.
 */
export function parseSharedFolder(sharedFolder: string): { share: string; folder: string[] } {
  const [share = '', ...folder] = sharedFolder.split(/[\\/]+/).filter((segment) => segment !== '');
  return { share, folder };
}

/** `DOMAIN\user` in username counts as domain + user when the domain field is empty. */
export function smbCredentials(connection: Pick<SmbConnection, 'username' | 'domain'>): { domain: string; username: string } {
  const domain = connection.domain ?? '';
  const slash = connection.username.indexOf('\\');
  if (domain === '' && slash > 0) return { domain: connection.username.slice(0, slash), username: connection.username.slice(slash + 1) };
  return { domain, username: connection.username };
}

/** Rules for the connections of an smb receiver; `isPrompt` skips values templates left to fill in. */
export function smbConnectionViolations(connections: readonly SmbConnection[], base: JsonPath, isPrompt: (value: string) => boolean): Violation[] {
  const out: Violation[] = [];
  connections.forEach((c, k) => {
    const at = [...base, 'connections', k];
    if (!isPrompt(c.host)) {
      if (/[\\/\s]/.test(c.host))
        out.push(error([...at, 'host'], say('smb.server_name_give_name', '"{host}" is not a server name: give only the name or IP address of the file server, e.g. fileserver01 or 192.168.10.5.', { host: c.host })));
      else if (/^[^:]+:\d+$/.test(c.host)) out.push(error([...at, 'host'], say('smb.put_port_port_field', 'Put the port in the port field, not in host ("{host}" and {host2}).', { host: c.host.slice(0, c.host.indexOf(':')), host2: c.host.slice(c.host.indexOf(':') + 1) })));
    }
    if (!isPrompt(c.shared_folder)) {
      const { share, folder } = parseSharedFolder(c.shared_folder);
      if (/^(\\\\|\/\/)/.test(c.shared_folder.trim()))
        out.push(error([...at, 'shared_folder'], say('smb.full_network_path_give', '"{shared_folder}" is a full network path: give only the share name and sub-folder (e.g. machines/line1); the server goes into host.', { shared_folder: c.shared_folder })));
      else if (share === '') out.push(error([...at, 'shared_folder'], say('smb.name_share_optionally_followed', 'Name the share, optionally followed by a sub-folder, e.g. machines/line1.')));
      else if (BAD_SHARE_CHARACTERS.test(share)) out.push(error([...at, 'shared_folder'], say('smb.cannot_share_name_windows', '"{share}" cannot be a share name: Windows share names contain none of " [ ] : | < > + = ; , * ?', { share })));
      else if (folder.some((segment) => segment === '..' || segment === '.'))
        out.push(error([...at, 'shared_folder'], say('smb.sub_folder_must_contain', 'The sub-folder must not contain "." or ".." parts: name the folder inside the share directly.')));
    }
    const slash = c.username.indexOf('\\');
    if (slash > 0 && c.domain && c.domain.toLowerCase() !== c.username.slice(0, slash).toLowerCase())
      out.push(error([...at, 'username'], say('smb.user_name_names_domain', 'The user name names the domain {username}, the domain field {domain}: keep one.', { username: c.username.slice(0, slash), domain: c.domain })));
  });
  return out;
}

/** process_ordered_connections false asks for something an smb receiver does not do. */
export function smbOrderViolations(receiver: { process_ordered_connections?: boolean }, base: JsonPath): Violation[] {
  return receiver.process_ordered_connections === false
    ? [warning([...base, 'process_ordered_connections'], say('smb.smb_receiver_reads_connections', 'An smb receiver reads its connections one after the other (one session at a time): process_ordered_connections false has no effect.'))]
    : [];
}
