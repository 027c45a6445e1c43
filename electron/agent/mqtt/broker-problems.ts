/**
 * What went wrong with a broker, in the words a plant engineer needs to fix it. One category per
 * cause, shared by the receiver and the transmit (docs/mqtt.md lists them).
 */
export const BROKER_CATEGORIES = ['broker_unreachable', 'login_refused', 'not_authorized', 'certificate_untrusted', 'connection_lost', 'broker_slow', 'client_id_taken'] as const;
export type BrokerCategory = (typeof BROKER_CATEGORIES)[number];

export interface BrokerProblem {
  category: BrokerCategory;
  message: string;
}

/** MQTT 3.1.1 CONNACK return codes and MQTT 5 reason codes that mean "who you are is refused". */
const BAD_LOGIN = new Set([4, 134, 140]);
const NOT_AUTHORIZED = new Set([5, 135, 138]);

const TLS_TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
]);

export interface BrokerTarget {
  /** mqtt://host:port or mqtts://host:port */
  url: string;
  username?: string;
  clientId: string;
  caFile?: string;
}

const who = (target: BrokerTarget) => (target.username ? `user "${target.username}"` : 'an anonymous client');

/** A problem from an error MQTT.js or the socket reported while connecting or connected. */
export function explainBrokerError(cause: unknown, target: BrokerTarget): BrokerProblem {
  const error = cause as Error & { code?: string | number };
  const code = error?.code;
  if (typeof code === 'number') {
    // Brokers answer a wrong password with either code (Mosquitto: "not authorized"): both mean
    // the login was refused.
    if (BAD_LOGIN.has(code) || NOT_AUTHORIZED.has(code)) {
      const said = BAD_LOGIN.has(code) ? 'bad user name or password' : code === 138 ? 'banned' : 'not authorized';
      return {
        category: 'login_refused',
        message: `The broker at ${target.url} refused the login of ${who(target)} (${said}): check username and password, and that the broker allows this user and client id "${target.clientId}".`,
      };
    }
    if (code === 133 || code === 2)
      return { category: 'login_refused', message: `The broker at ${target.url} refused the client id "${target.clientId}". Set another client_id.` };
    return { category: 'broker_unreachable', message: `The broker at ${target.url} refused the connection: ${error.message} (reason code ${code}).` };
  }
  if (typeof code === 'string' && TLS_TRUST_CODES.has(code)) {
    const fix = target.caFile ? `Check that ca_file (${target.caFile}) holds the CA that signed the broker's certificate` : 'Give the certificate of the CA that signed it in ca_file';
    const what = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'is not made out to this host name' : code.startsWith('CERT_') ? 'is not valid' : 'is not trusted';
    return { category: 'certificate_untrusted', message: `The TLS certificate of the broker at ${target.url} ${what} (${code}): the connection was refused. ${fix}.` };
  }
  if (typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EPIPE)$/.test(code))
    return { category: 'broker_unreachable', message: `Cannot reach the broker at ${target.url} (${code}): is it running, and do the network and firewall let this PC reach that port?` };
  if (/connack timeout/i.test(error?.message ?? ''))
    return { category: 'broker_unreachable', message: `The broker at ${target.url} did not answer the connection request in time: is it overloaded, or is this port not an MQTT ${target.url.startsWith('mqtts') ? 'TLS ' : ''}listener?` };
  if (/wrong version number|packet length|EPROTO/i.test(`${error?.message} ${code}`))
    return { category: 'broker_unreachable', message: `The broker at ${target.url} does not speak ${target.url.startsWith('mqtts') ? 'TLS' : 'plain MQTT'} on that port (${error?.message}). Check tls and port.` };
  return { category: 'broker_unreachable', message: `The connection to the broker at ${target.url} failed: ${error?.message ?? String(cause)}.` };
}

/** A problem from the broker's DISCONNECT (MQTT 5), or undefined for an ordinary one. */
export function explainDisconnect(reasonCode: number | undefined, target: BrokerTarget): BrokerProblem | undefined {
  if (!reasonCode) return undefined;
  if (reasonCode === 142)
    return { category: 'client_id_taken', message: `Another client connected to the broker at ${target.url} with the same client id "${target.clientId}" and pushed this one off. Give each agent and component its own client_id.` };
  if (NOT_AUTHORIZED.has(reasonCode))
    return { category: 'not_authorized', message: `The broker at ${target.url} disconnected ${who(target)}: not authorized (reason code ${reasonCode}).` };
  return { category: 'connection_lost', message: `The broker at ${target.url} closed the connection (reason code ${reasonCode}${reasonCode === 139 ? ': server shutting down' : ''}).` };
}
