import { say, type AgentMessage } from '../../../shared/config/message.js';

/**
 * What went wrong with a broker, in the words a plant engineer needs to fix it. One category per
 * cause, shared by the receiver and the transmit (docs/mqtt.md lists them).
 */
export const BROKER_CATEGORIES = ['broker_unreachable', 'login_refused', 'not_authorized', 'certificate_untrusted', 'connection_lost', 'broker_slow', 'client_id_taken'] as const;
export type BrokerCategory = (typeof BROKER_CATEGORIES)[number];

export interface BrokerProblem {
  category: BrokerCategory;
  /** In English, as the log and tools read it: said.text. */
  message: string;
  /** With its code (issue 57): the console writes it in the operator's language. */
  said: AgentMessage;
}

/** A problem of `category` from its message. */
export const brokerProblem = (category: BrokerCategory, said: AgentMessage): BrokerProblem => ({ category, message: said.text, said });

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

/** Who logged in, as a message of its own: "user "line1"" or "an anonymous client". */
export const who = (username: string | undefined) => (username ? say('mqtt.who_user', 'user "{user}"', { user: username }) : say('mqtt.who_anonymous', 'an anonymous client'));

/** A problem from an error MQTT.js or the socket reported while connecting or connected. */
export function explainBrokerError(cause: unknown, target: BrokerTarget): BrokerProblem {
  const error = cause as Error & { code?: string | number };
  const code = error?.code;
  const { url, clientId: client_id } = target;
  if (typeof code === 'number') {
    // Brokers answer a wrong password with either code (Mosquitto: "not authorized"): both mean
    // the login was refused.
    if (BAD_LOGIN.has(code) || NOT_AUTHORIZED.has(code)) {
      const reason = BAD_LOGIN.has(code) ? say('mqtt.reason_bad_login', 'bad user name or password') : code === 138 ? say('mqtt.reason_banned', 'banned') : say('mqtt.reason_not_authorized', 'not authorized');
      return brokerProblem(
        'login_refused',
        say('mqtt.login_refused', 'The broker at {url} refused the login of {who} ({reason}): check username and password, and that the broker allows this user and client id "{client_id}".', { url, who: who(target.username), reason, client_id }),
      );
    }
    if (code === 133 || code === 2) return brokerProblem('login_refused', say('mqtt.client_id_refused', 'The broker at {url} refused the client id "{client_id}". Set another client_id.', { url, client_id }));
    return brokerProblem('broker_unreachable', say('mqtt.connection_refused_code', 'The broker at {url} refused the connection: {error} (reason code {code}).', { url, error: error.message, code }));
  }
  if (typeof code === 'string' && TLS_TRUST_CODES.has(code)) {
    const ca_file = target.caFile;
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
      return brokerProblem('certificate_untrusted', ca_file ? say('mqtt.certificate_wrong_host_ca', 'The TLS certificate of the broker at {url} is not made out to this host name ({code}): the connection was refused. Check that ca_file ({ca_file}) holds the CA that signed the broker\'s certificate.', { url, code, ca_file }) : say('mqtt.certificate_wrong_host', 'The TLS certificate of the broker at {url} is not made out to this host name ({code}): the connection was refused. Give the certificate of the CA that signed it in ca_file.', { url, code }));
    if (code.startsWith('CERT_'))
      return brokerProblem('certificate_untrusted', ca_file ? say('mqtt.certificate_invalid_ca', 'The TLS certificate of the broker at {url} is not valid ({code}): the connection was refused. Check that ca_file ({ca_file}) holds the CA that signed the broker\'s certificate.', { url, code, ca_file }) : say('mqtt.certificate_invalid', 'The TLS certificate of the broker at {url} is not valid ({code}): the connection was refused. Give the certificate of the CA that signed it in ca_file.', { url, code }));
    return brokerProblem('certificate_untrusted', ca_file ? say('mqtt.certificate_untrusted_ca', 'The TLS certificate of the broker at {url} is not trusted ({code}): the connection was refused. Check that ca_file ({ca_file}) holds the CA that signed the broker\'s certificate.', { url, code, ca_file }) : say('mqtt.certificate_untrusted', 'The TLS certificate of the broker at {url} is not trusted ({code}): the connection was refused. Give the certificate of the CA that signed it in ca_file.', { url, code }));
  }
  if (typeof code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EPIPE)$/.test(code))
    return brokerProblem('broker_unreachable', say('mqtt.unreachable', 'Cannot reach the broker at {url} ({code}): is it running, and do the network and firewall let this PC reach that port?', { url, code }));
  const tls = url.startsWith('mqtts');
  if (/connack timeout/i.test(error?.message ?? ''))
    return brokerProblem('broker_unreachable', tls ? say('mqtt.connack_timeout_tls', 'The broker at {url} did not answer the connection request in time: is it overloaded, or is this port not an MQTT TLS listener?', { url }) : say('mqtt.connack_timeout', 'The broker at {url} did not answer the connection request in time: is it overloaded, or is this port not an MQTT listener?', { url }));
  if (/wrong version number|packet length|EPROTO/i.test(`${error?.message} ${code}`))
    return brokerProblem('broker_unreachable', tls ? say('mqtt.not_tls', 'The broker at {url} does not speak TLS on that port ({error}). Check tls and port.', { url, error: String(error?.message) }) : say('mqtt.not_plain', 'The broker at {url} does not speak plain MQTT on that port ({error}). Check tls and port.', { url, error: String(error?.message) }));
  return brokerProblem('broker_unreachable', say('mqtt.connection_failed', 'The connection to the broker at {url} failed: {error}.', { url, error: error?.message ?? String(cause) }));
}

/** A problem from the broker's DISCONNECT (MQTT 5), or undefined for an ordinary one. */
export function explainDisconnect(reasonCode: number | undefined, target: BrokerTarget): BrokerProblem | undefined {
  if (!reasonCode) return undefined;
  const { url, clientId: client_id } = target;
  if (reasonCode === 142)
    return brokerProblem('client_id_taken', say('mqtt.client_id_taken', 'Another client connected to the broker at {url} with the same client id "{client_id}" and pushed this one off. Give each agent and component its own client_id.', { url, client_id }));
  if (NOT_AUTHORIZED.has(reasonCode)) return brokerProblem('not_authorized', say('mqtt.disconnected_not_authorized', 'The broker at {url} disconnected {who}: not authorized (reason code {code}).', { url, who: who(target.username), code: reasonCode }));
  if (reasonCode === 139) return brokerProblem('connection_lost', say('mqtt.server_shutting_down', 'The broker at {url} closed the connection (reason code {code}: server shutting down).', { url, code: reasonCode }));
  return brokerProblem('connection_lost', say('mqtt.closed_with_code', 'The broker at {url} closed the connection (reason code {code}).', { url, code: reasonCode }));
}
