/**
 * Semantic rules of an `opcua` receiver: node id syntax, column names that would clash with the
 * columns the receiver adds (`<exportname>_status`, flattened arrays), and security settings that
 * do not fit together. Pure; reports at the exact json_path to change.
 */
import type { z } from 'zod';
import type { OpcuaReceiverSchema } from './schema.js';
import { type JsonPath, type Violation, error, warning, say } from '../../violations.js';

type OpcuaReceiver = z.infer<typeof OpcuaReceiverSchema>;

const TEMPLATE_PROMPT = '<fill in: ';
/** Columns every record already has: a tag must not take their names. */
const RECORD_COLUMNS = new Set(['timestamp', 'capturetime', 'record_id']);
/** `ns=<index>;` (optional) then `i=<number>`, `s=<text>`, `g=<guid>` or `b=<base64>`. */
const NODE_ID = /^(?:ns=\d+;)?(?:i=\d+|s=.+|g=[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|b=[A-Za-z0-9+/]+={0,2})$/;
const THUMBPRINT = /^[0-9a-fA-F]{40}$/;

/** True for node ids the receiver can read, e.g. `ns=2;s=Line1.Temp`, `i=2258`, `ns=3;g=…`, `ns=4;b=…`. */
export function isNodeId(text: string): boolean {
  return NODE_ID.test(text.trim());
}

/**
 * The node id a tag reads. With `namespace_index` (the product family's form) `name` is the
 * identifier: "Counter1" → ns=5;s=Counter1, "i=1001" → ns=5;i=1001; a name that already starts
 * with ns= is used as it is (a different namespace_index is a violation).
 */
export function tagNodeId(tag: { name: string; namespace_index?: number }): string {
  const name = tag.name.trim();
  if (tag.namespace_index === undefined || /^ns=\d+;/.test(name)) return tag.name;
  return /^(?:i|s|g|b)=/.test(name) ? `ns=${tag.namespace_index};${name}` : `ns=${tag.namespace_index};s=${tag.name}`;
}

export function opcuaReceiverViolations(receiver: OpcuaReceiver, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  receiver.streams.forEach((stream, j) => {
    const tagsPath: JsonPath = [...base, 'streams', j, 'opcua_tags'];
    const columns = new Map<string, number>();
    const nodes = new Map<string, number>();
    stream.opcua_tags.forEach((tag, k) => {
      if (tag.exportname.startsWith(TEMPLATE_PROMPT) || tag.name.startsWith(TEMPLATE_PROMPT)) return;
      const first = columns.get(tag.exportname);
      if (first !== undefined) out.push(error([...tagsPath, k, 'exportname'], say('opcua.column_name_already_used', 'The column name "{exportname}" is already used by tag {first} of this stream.', { exportname: tag.exportname, first: first + 1 })));
      else columns.set(tag.exportname, k);
      if (RECORD_COLUMNS.has(tag.exportname))
        out.push(error([...tagsPath, k, 'exportname'], say('opcua.column_every_record_already', '"{exportname}" is a column every record already has. Choose another column name.', { exportname: tag.exportname })));
      const node = tagNodeId(tag);
      const written = /^ns=(\d+);/.exec(tag.name.trim());
      if (written && tag.namespace_index !== undefined && Number(written[1]) !== tag.namespace_index)
        out.push(error([...tagsPath, k, 'namespace_index'], say('opcua.namespace_index_disagrees_ns_name', 'namespace_index {namespace_index} disagrees with the ns={written} in name; keep one.', { namespace_index: tag.namespace_index, written: written[1] ?? '' })));
      else if (!isNodeId(node))
        out.push(error([...tagsPath, k, 'name'], say('opcua.node_id_form_ns', '"{name}" is not a node id. Use the form ns=2;s=Line1.Temperature (string id) or ns=2;i=1001 (numeric id), as the tag browser shows it, or the identifier alone with namespace_index.', { name: tag.name })));
      const sameNode = nodes.get(node.trim());
      if (sameNode !== undefined) out.push(warning([...tagsPath, k, 'name'], say('opcua.node_already_read_tag', 'The node {node} is already read by tag {sameNode} of this stream: both columns get the same values.', { node, sameNode: sameNode + 1 })));
      else nodes.set(node.trim(), k);
    });
    // Each tag adds `<exportname>_status`: another tag must not be called that.
    stream.opcua_tags.forEach((tag, k) => {
      const owner = tag.exportname.endsWith('_status') ? columns.get(tag.exportname.slice(0, -'_status'.length)) : undefined;
      if (owner !== undefined && owner !== k)
        out.push(error([...tagsPath, k, 'exportname'], say('opcua.status_column_tag_choose', '"{exportname}" is the status column of tag {owner} ("{exportname2}"). Choose another column name.', { exportname: tag.exportname, owner: owner + 1, exportname2: tag.exportname.slice(0, -'_status'.length) })));
    });
  });
  // history_backfill_max_hours is filled in with 24: another value was written on purpose.
  if (!receiver.history_backfill && receiver.history_backfill_max_hours !== 24)
    out.push(warning([...base, 'history_backfill_max_hours'], say('opcua.history_backfill_max_hours_effect_while_history_backfill', 'history_backfill_max_hours has no effect while history_backfill is false. Set history_backfill to true to read the gap after a restart or reconnect from the server\'s history.')));
  if (receiver.connections.length > 1)
    out.push(warning([...base, 'connections', 1], say('opcua.opcua_receiver_reads_server', 'An opcua receiver reads from one server: only the first connection is used. Add a receiver per server.')));
  receiver.connections.forEach((c, k) => {
    const path: JsonPath = [...base, 'connections', k];
    if (c.server_name !== undefined && c.endpoint_path !== undefined && c.server_name.replace(/^\/+/, '') !== c.endpoint_path.replace(/^\/+/, ''))
      out.push(error([...path, 'server_name'], say('opcua.server_name_endpoint_path_name_different', 'server_name "{server_name}" and endpoint_path "{endpoint_path}" name different endpoints; keep one.', { server_name: c.server_name, endpoint_path: c.endpoint_path })));
    const mode = c.security_mode ?? 'None';
    const policy = c.security_policy;
    if (mode !== 'None' && policy === 'None') out.push(error([...path, 'security_policy'], say('opcua.security_mode_needs_security_policy', 'security_mode {mode} needs a security policy such as Basic256Sha256.', { mode })));
    if (mode === 'None' && policy && policy !== 'None') out.push(error([...path, 'security_mode'], say('opcua.security_policy_needs_security_mode_sign', 'security_policy {policy} needs security_mode Sign or SignAndEncrypt.', { policy })));
    if (c.username !== undefined && c.username !== '' && c.password === undefined)
      out.push(error([...path, 'password'], say('opcua.username_needs_password_anonymous', 'A username needs a password. For anonymous access remove username.')));
    if ((c.username === undefined || c.username === '') && c.password !== undefined && c.password !== '')
      out.push(error([...path, 'username'], say('opcua.password_needs_username_anonymous', 'A password needs a username. For anonymous access remove password.')));
    if (c.username && mode === 'None')
      out.push(warning([...path, 'security_mode'], say('opcua.security_mode_none_session_encrypted', 'With security_mode None the session is not encrypted: use Sign or SignAndEncrypt so that the password and values are protected.')));
    (c.trusted_server_certificates ?? []).forEach((print, t) => {
      if (!print.startsWith(TEMPLATE_PROMPT) && !THUMBPRINT.test(print.replace(/[\s:]/g, '')))
        out.push(error([...path, 'trusted_server_certificates', t], say('opcua.certificate_thumbprint_hexadecimal_digits', '"{print}" is not a certificate thumbprint: 40 hexadecimal digits (SHA-1), ":" and spaces allowed, as shown in the certificate_untrusted marker.', { print })));
    });
    if (mode === 'None' && (c.trust_on_first_use || (c.trusted_server_certificates ?? []).length > 0))
      out.push(warning([...path, c.trust_on_first_use ? 'trust_on_first_use' : 'trusted_server_certificates'], say('opcua.server_certificates_checked_security_mode', 'Server certificates are only checked with security_mode Sign or SignAndEncrypt; with None this setting has no effect.')));
  });
  return out;
}
