import fs from 'node:fs';
import path from 'node:path';
import {
  AttributeIds,
  type ClientSession,
  type EndpointDescription,
  MessageSecurityMode,
  OPCUAClient,
  SecurityPolicy,
  type UserIdentityInfo,
  UserTokenType,
} from 'node-opcua-client';
import { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import type { z } from 'zod';
import type { OpcuaConnectionSchema } from '../../../../shared/config/schema.js';
import type { DisposableStore } from '../../lifecycle/index.js';
import { ServerTrust, UntrustedCertificateError, pemToDer, thumbprint } from './server-trust.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

export type OpcuaConnection = z.infer<typeof OpcuaConnectionSchema>;

/** Operation limits of the server (OperationLimits), used to chunk requests. */
export interface OperationLimits {
  maxNodesPerRead: number;
  maxMonitoredItemsPerCall: number;
  maxNodesPerBrowse: number;
}

export interface OpenSession {
  client: OPCUAClient;
  session: ClientSession;
  endpointUrl: string;
  limits: OperationLimits;
  /** Closes session and connection; bounded, never throws. */
  close(): Promise<void>;
}

/**
 * Calls `lost` with the reason when the connection or the session ends, until `owner` is disposed:
 * the listeners leave the client and session with the reader that added them.
 */
export function onSessionLost(open: OpenSession, owner: DisposableStore, lost: (reason: AgentMessage) => void): void {
  const closed = () => lost(say('opcua.connection_closed', 'the connection was closed'));
  const cut = () => lost(say('opcua.connection_cut', 'the connection was lost'));
  const ended = () => lost(say('opcua.session_closed', 'the server closed the session'));
  owner.listen(open.client, 'close', closed);
  owner.listen(open.client, 'connection_lost', cut);
  owner.listen(open.session, 'session_closed', ended);
}

/** A connection attempt failed; `category` names the marker, `message` says what to do. */
export class ConnectError extends Error {
  constructor(
    readonly category: 'connect_failed' | 'certificate_untrusted' | 'certificate_rejected' | 'login_failed' | 'endpoint_not_found',
    /** With its code (issue 57): the console writes it in the operator's language. */
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }
}

/** What an error says: its message with a code when it has one (bounded's timeouts), else its text. */
export const saidOf = (cause: unknown): AgentMessage | string => (cause as { said?: AgentMessage })?.said ?? (cause as Error)?.message ?? String(cause);

const APPLICATION_NAME = 'Tributary';
/** Chunk size when the server does not state a limit. */
const DEFAULT_CHUNK = 1000;
const LIMIT_NODES = { maxNodesPerRead: 'i=11705', maxNodesPerBrowse: 'i=11710', maxMonitoredItemsPerCall: 'i=11714' } as const;

export function endpointUrlOf(connection: OpcuaConnection): string {
  const host = connection.host.includes(':') && !connection.host.startsWith('[') ? `[${connection.host}]` : connection.host;
  // server_name is the product family's name for the endpoint path.
  const path = connection.endpoint_path ?? connection.server_name;
  const suffix = path ? `/${path.replace(/^\/+/, '')}` : '';
  return `opc.tcp://${host}:${connection.port}${suffix}`;
}

/** The effective security: policy Basic256Sha256 when a secure mode names none. */
export function securityOf(connection: OpcuaConnection): { mode: 'None' | 'Sign' | 'SignAndEncrypt'; policy: keyof typeof SecurityPolicy } {
  const mode = connection.security_mode ?? 'None';
  const policy = mode === 'None' ? 'None' : connection.security_policy && connection.security_policy !== 'None' ? connection.security_policy : 'Basic256Sha256';
  return { mode, policy };
}

/**
 * One OPC UA server as this receiver talks to it: the application certificate (created once in
 * `<component dir>/pki/own`, so a server that trusted it keeps trusting it), the trust list of
 * server certificates (`pki/trusted`), endpoint selection, login, and operation limits.
 */
export class OpcuaEndpoint {
  readonly url: string;
  private readonly certificates: OPCUACertificateManager;
  private readonly trust: ServerTrust;
  private readonly timeoutMs: number;
  private initialized = false;

  constructor(
    private readonly connection: OpcuaConnection,
    readonly pkiFolder: string,
  ) {
    this.url = endpointUrlOf(connection);
    this.timeoutMs = Math.max(1000, connection.timeout * 1000);
    fs.mkdirSync(pkiFolder, { recursive: true });
    this.certificates = new OPCUACertificateManager({ rootFolder: pkiFolder, automaticallyAcceptUnknownCertificate: false, name: 'PKI' });
    this.trust = new ServerTrust(this.certificates, { trustedThumbprints: connection.trusted_server_certificates ?? [], trustOnFirstUse: connection.trust_on_first_use ?? false }, pkiFolder);
  }

  get certificateFile(): string {
    return path.join(this.pkiFolder, 'own', 'certs', 'client_certificate.pem');
  }

  /** Creates the PKI folders and, the first time only, the application certificate. */
  async init(): Promise<void> {
    if (this.initialized) return;
    try {
      await this.certificates.initialize();
      await this.createCertificate();
    } catch (cause) {
      throw new ConnectError('connect_failed', say('opcua.own_certificate_failed', 'Tributary could not create or read its application certificate in {folder}: {error}.', { folder: this.pkiFolder, error: (cause as Error).message }));
    }
    this.initialized = true;
  }

  private async createCertificate(): Promise<void> {
    if (fs.existsSync(this.certificateFile)) return;
    const client = this.newClient('None', 'None');
    try {
      await client.createDefaultCertificate();
    } finally {
      await client.disconnect().catch(() => undefined);
    }
  }

  /** Thumbprint of Tributary's application certificate, to trust on the server. */
  ownThumbprint(): string | undefined {
    try {
      return thumbprint(pemToDer(fs.readFileSync(this.certificateFile, 'utf8')));
    } catch {
      return undefined;
    }
  }

  async dispose(): Promise<void> {
    await this.certificates.dispose().catch(() => undefined);
  }

  /**
   * Finds the endpoint, checks the server certificate against the trust list, connects and logs in.
   * Throws ConnectError with a marker category and an engineer's message.
   */
  async open(options: { keepSessionAlive: boolean; onTrust?: (how: string, print: string) => void }): Promise<OpenSession> {
    const { mode, policy } = securityOf(this.connection);
    const endpoint = await this.selectEndpoint(mode, policy);
    if (mode !== 'None') {
      try {
        const how = await this.trust.check(Buffer.from(endpoint.serverCertificate), this.url);
        if (how !== 'trusted') options.onTrust?.(how, thumbprint(Buffer.from(endpoint.serverCertificate)));
      } catch (cause) {
        if (cause instanceof UntrustedCertificateError) throw new ConnectError('certificate_untrusted', cause.said);
        throw cause;
      }
    }
    const client = this.newClient(mode, policy, options.keepSessionAlive);
    const close = async () => {
      await bounded(client.disconnect(), this.timeoutMs).catch(() => undefined);
    };
    try {
      await bounded(client.connect(this.url), this.timeoutMs, noAnswer(this.url, this.connection.timeout));
    } catch (cause) {
      await close();
      throw this.explain(cause);
    }
    let session: ClientSession;
    try {
      session = await bounded(client.createSession(this.identity()), this.timeoutMs, say('opcua.no_session', 'the server did not open a session within {seconds} s', { seconds: this.connection.timeout }));
    } catch (cause) {
      await close();
      throw this.explain(cause);
    }
    const limits = await this.readLimits(session);
    return {
      client,
      session,
      endpointUrl: this.url,
      limits,
      close: async () => {
        await bounded(session.close(true), this.timeoutMs).catch(() => undefined);
        await close();
      },
    };
  }

  private identity(): UserIdentityInfo {
    if (this.connection.username) return { type: UserTokenType.UserName, userName: this.connection.username, password: this.connection.password ?? '' };
    return { type: UserTokenType.Anonymous };
  }

  private newClient(mode: string, policy: keyof typeof SecurityPolicy, keepSessionAlive = false): OPCUAClient {
    return OPCUAClient.create({
      applicationName: APPLICATION_NAME,
      clientName: APPLICATION_NAME,
      endpointMustExist: false,
      // One attempt: the receiver owns retries and rebuilds session and subscriptions from scratch.
      connectionStrategy: { maxRetry: 0, initialDelay: 200, maxDelay: 1000 },
      securityMode: MessageSecurityMode[mode as keyof typeof MessageSecurityMode],
      securityPolicy: SecurityPolicy[policy],
      clientCertificateManager: this.certificates,
      keepSessionAlive,
      requestedSessionTimeout: 60_000,
      transportTimeout: this.timeoutMs,
      defaultTransactionTimeout: this.timeoutMs,
      // node-opcua's client accepts messages of any size by default: a server's answer of gigabytes
      // would be gathered in memory. 32 MiB holds any read or publish of the tags a stream names.
      transportSettings: { maxMessageSize: 32 * 1024 * 1024 },
    });
  }

  /** Asks the server which endpoints it offers (over an unsecured discovery channel, as UaExpert does). */
  private async selectEndpoint(mode: string, policy: string): Promise<EndpointDescription> {
    const discovery = this.newClient('None', 'None');
    let endpoints: EndpointDescription[];
    try {
      await bounded(discovery.connect(this.url), this.timeoutMs, noAnswer(this.url, this.connection.timeout));
      endpoints = await bounded(discovery.getEndpoints(), this.timeoutMs, say('opcua.no_endpoint_list', 'no endpoint list from {url} within {seconds} s', { url: this.url, seconds: this.connection.timeout }));
    } catch (cause) {
      throw this.explain(cause);
    } finally {
      await bounded(discovery.disconnect(), this.timeoutMs).catch(() => undefined);
    }
    const wanted = MessageSecurityMode[mode as keyof typeof MessageSecurityMode];
    const match = endpoints.find((e) => e.securityMode === wanted && e.securityPolicyUri === SecurityPolicy[policy as keyof typeof SecurityPolicy]);
    const offered = [...new Set(endpoints.map((e) => `${MessageSecurityMode[e.securityMode]}/${e.securityPolicyUri?.split('#')[1] ?? 'None'}`))].join(', ');
    const url = this.url;
    if (!match)
      throw new ConnectError(
        'endpoint_not_found',
        offered
          ? say('opcua.endpoint_not_found', 'The server at {url} offers no endpoint with security_mode {mode} and security_policy {policy}. It offers: {offered}. Choose one of these.', { url, mode, policy, offered })
          : say('opcua.no_endpoints', 'The server at {url} offers no endpoint with security_mode {mode} and security_policy {policy}. It offers: nothing. Choose one of these.', { url, mode, policy }),
      );
    const tokens = (match.userIdentityTokens ?? []).map((t) => t.tokenType);
    if (this.connection.username && !tokens.includes(UserTokenType.UserName))
      throw new ConnectError('login_failed', say('opcua.password_not_accepted', 'The server at {url} does not accept user name and password on this endpoint (security_mode {mode}). Remove username/password or choose another security mode.', { url, mode }));
    if (!this.connection.username && tokens.length > 0 && !tokens.includes(UserTokenType.Anonymous))
      throw new ConnectError('login_failed', say('opcua.anonymous_not_allowed', 'The server at {url} does not allow anonymous access on this endpoint: set username and password.', { url }));
    return match;
  }

  private async readLimits(session: ClientSession): Promise<OperationLimits> {
    const keys = Object.keys(LIMIT_NODES) as (keyof OperationLimits)[];
    const limits: OperationLimits = { maxNodesPerRead: DEFAULT_CHUNK, maxMonitoredItemsPerCall: DEFAULT_CHUNK, maxNodesPerBrowse: DEFAULT_CHUNK };
    try {
      const values = await bounded(session.read(keys.map((k) => ({ nodeId: LIMIT_NODES[k], attributeId: AttributeIds.Value }))), this.timeoutMs);
      keys.forEach((key, i) => {
        const value = Number(values[i]?.value?.value);
        if (values[i]?.statusCode.isGood() && Number.isInteger(value) && value > 0) limits[key] = value;
      });
    } catch {
      // Servers without OperationLimits: keep the defaults.
    }
    return limits;
  }

  /** Turns a library error into the marker an engineer can act on. */
  explain(cause: unknown): ConnectError {
    if (cause instanceof ConnectError) return cause;
    const text = (cause as Error)?.message ?? String(cause);
    const url = this.url;
    if (/BadSecurityChecksFailed|BadCertificateUntrusted|BadCertificateInvalid|rejected by server/i.test(text)) {
      const print = this.ownThumbprint();
      const file = this.certificateFile;
      return new ConnectError(
        'certificate_rejected',
        print
          ? say('opcua.own_certificate_rejected', 'The server at {url} refused Tributary\'s application certificate (thumbprint {thumbprint}; file {file}). Trust it on the server — most servers list it among their rejected certificates now. Tributary tries again.', { url, thumbprint: print, file })
          : say('opcua.own_certificate_rejected_unknown', 'The server at {url} refused Tributary\'s application certificate (thumbprint unknown; file {file}). Trust it on the server — most servers list it among their rejected certificates now. Tributary tries again.', { url, file }),
      );
    }
    if (/BadUserAccessDenied|BadIdentityToken/i.test(text)) {
      const status = /Bad\w+/.exec(text)?.[0] ?? text;
      const user = this.connection.username;
      return new ConnectError(
        'login_failed',
        user
          ? say('opcua.login_refused', 'The server at {url} refused the login of user "{user}" ({status}). Check username and password.', { url, user, status })
          : say('opcua.login_refused_anonymous', 'The server at {url} refused the login of user "anonymous" ({status}). Check username and password.', { url, status }),
      );
    }
    const code = /\b(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN)\b/.exec(text)?.[1];
    if (code === 'ECONNREFUSED') return new ConnectError('connect_failed', say('opcua.connect_refused', 'Cannot connect to the OPC UA server at {url}: nothing listens on that port (is the server running?).', { url }));
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConnectError('connect_failed', say('opcua.host_unknown', 'Cannot connect to the OPC UA server at {url}: the host name is unknown.', { url }));
    return new ConnectError('connect_failed', say('opcua.cannot_connect', 'Cannot connect to the OPC UA server at {url}: {error}.', { url, error: code ?? saidOf(cause) }));
  }
}

/** No answer from the server at `url` within `seconds`. */
const noAnswer = (url: string, seconds: number) => say('opcua.no_answer', 'no answer from {url} within {seconds} s', { url, seconds });

/** Rejects when `work` takes longer than `ms` (the library's own timeouts are not always honoured). */
export async function bounded<T>(work: Promise<T>, ms: number, message: string | AgentMessage = say('opcua.timed_out', 'timed out after {ms} ms', { ms })): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  // A message with a code goes on with the error (saidOf): the marker says it in the operator's language.
  const error = () => (typeof message === 'string' ? new Error(message) : Object.assign(new Error(message.text), { said: message }));
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
