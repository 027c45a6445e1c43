/**
 * What each secret authenticates to. A masked secret ("********") sent back with a configuration is
 * reused only while the target it was saved for is unchanged: otherwise whoever holds the API token
 * could point a saved password at a server of their own and read it there (decisions.md, "API
 * transport and security").
 *
 * The rows come from the receiver and transmit folders (their descriptors' `secrets`): `where` is
 * the path of the objects that hold it ("*" = any list index), `secret` the key, `fields` what names
 * its target. A secret in a place no row describes
 * is reused only while every other plain field of the object holding it is unchanged.
 */

import { type Json, type SecretTarget, type TargetField, normalBaseUrl } from './secret-fields.js';
import { RECEIVER_DESCRIPTORS } from './receivers/index.js';
import { TRANSMIT_BLOCK_SECRETS, TRANSMIT_SECRETS } from './transmits/derive.js';

export { normalBaseUrl, type SecretTarget, type TargetField };

/**
 * One row per secret key of receiver connections (each protocol's folder says what names its
 * target): the fields of every protocol, each read the way the protocol of the receiver holding it
 * reads it (smb's port defaults to 445).
 */
function receiverConnectionTargets(): SecretTarget[] {
  const secrets = RECEIVER_DESCRIPTORS.flatMap((d) => (d.secrets ?? []).map((s) => ({ protocol: d.protocol, ...s })));
  return [...new Set(secrets.map((s) => s.secret))].map((secret) => {
    const own = secrets.filter((s) => s.secret === secret);
    const names = [...new Set(own.flatMap((s) => s.fields.map((f) => f.name)))];
    const fields: TargetField[] = names.map((name) => ({
      name,
      read: (holder, owner, root) => {
        const field = own.find((s) => s.protocol === owner?.protocol)?.fields.find((f) => f.name === name);
        return field?.read ? field.read(holder, owner, root) : holder[name];
      },
    }));
    return { where: ['data_receiver', '*', 'connections', '*'], secret, target: own[0]!.target, fields };
  });
}

export const SECRET_TARGETS: readonly SecretTarget[] = [
  ...receiverConnectionTargets(),
  // Transmits' own secrets, from each type's folder (remotedatapost's API_key, mqtt's password).
  ...TRANSMIT_SECRETS,
  // Secrets of top-level blocks a transmit type reads (sight_machine_cloud's key).
  ...TRANSMIT_BLOCK_SECRETS,
];

/** The row for a secret `key` held by `holder` at `holderPath`, if any. */
export function secretTargetAt(holderPath: readonly (string | number)[], key: string, holder?: Json): SecretTarget | undefined {
  return SECRET_TARGETS.find(
    (row) =>
      row.secret === key &&
      row.where.length === holderPath.length &&
      row.where.every((part, i) => (part === '*' ? typeof holderPath[i] === 'number' : part === holderPath[i])) &&
      (!row.when || (holder !== undefined && row.when(holder))),
  );
}
