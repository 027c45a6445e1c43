import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OPCUACertificateManager } from 'node-opcua-certificate-manager';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/** SHA-1 over the DER certificate, 40 lower-case hex digits: what UaExpert and node-opcua show. */
export function thumbprint(der: Buffer): string {
  return crypto.createHash('sha1').update(der).digest('hex');
}

/** "AB:CD …" or "ab cd …" → "abcd…". */
export function normalizeThumbprint(text: string): string {
  return text.replace(/[\s:]/g, '').toLowerCase();
}

export function pemToDer(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

/** The server's certificate is not (yet) trusted: nothing is sent to it. */
export class UntrustedCertificateError extends Error {
  constructor(
    readonly thumbprint: string,
    /** With its code (issue 57): the console writes it in the operator's language. */
    readonly said: AgentMessage,
  ) {
    super(said.text);
  }
}

export interface TrustOptions {
  trustedThumbprints: readonly string[];
  trustOnFirstUse: boolean;
}

/**
 * Decides whether to talk to a server that shows `certificate`. The trust list is the PKI folder of
 * the receiver (`pki/trusted/certs`); a certificate seen for the first time lands in
 * `pki/rejected/certs`. It is trusted when it is in the trust list, when its thumbprint is in
 * `trusted_server_certificates` (it is then added to the list), or — with `trust_on_first_use` —
 * when no certificate was pinned for this endpoint yet. A pinned endpoint that shows a different
 * certificate is refused, like SSH's known_hosts.
 */
export class ServerTrust {
  private readonly pinsFile: string;

  constructor(
    private readonly certificates: OPCUACertificateManager,
    private readonly options: TrustOptions,
    pkiFolder: string,
  ) {
    this.pinsFile = path.join(pkiFolder, 'first-use-pins.json');
  }

  /** Resolves when the certificate may be used; throws UntrustedCertificateError otherwise. Returns what happened. */
  async check(certificate: Buffer, endpointUrl: string): Promise<'trusted' | 'trusted_by_configuration' | 'trusted_on_first_use'> {
    const print = thumbprint(certificate);
    const status = await this.certificates.checkCertificate(certificate);
    const pins = this.readPins();
    const pinned = pins[endpointUrl];
    if (this.options.trustOnFirstUse && pinned !== undefined && pinned !== print && !this.configured(print))
      throw new UntrustedCertificateError(
        print,
        say(
          'opcua.certificate_changed',
          'The server at {url} shows a different certificate (thumbprint {thumbprint}) than the one trusted on first use ({pinned}). If the server was reinstalled or got a new certificate, add {thumbprint} to trusted_server_certificates; otherwise someone may be impersonating it.',
          { url: endpointUrl, thumbprint: print, pinned },
        ),
      );
    if (status.isGood()) {
      if (this.options.trustOnFirstUse && pinned === undefined) this.pin(pins, endpointUrl, print);
      return 'trusted';
    }
    if (status.name !== 'BadCertificateUntrusted')
      throw new UntrustedCertificateError(
        print,
        say('opcua.certificate_invalid', 'The certificate of the server at {url} (thumbprint {thumbprint}) is not valid: {status}. Renew or fix it on the server.', { url: endpointUrl, thumbprint: print, status: status.name }),
      );
    if (this.configured(print)) {
      await this.certificates.trustCertificate(certificate);
      if (this.options.trustOnFirstUse) this.pin(pins, endpointUrl, print);
      return 'trusted_by_configuration';
    }
    if (this.options.trustOnFirstUse && pinned === undefined) {
      await this.certificates.trustCertificate(certificate);
      this.pin(pins, endpointUrl, print);
      return 'trusted_on_first_use';
    }
    throw new UntrustedCertificateError(
      print,
      say(
        'opcua.certificate_not_trusted',
        'The server at {url} shows a certificate that is not trusted yet (thumbprint {thumbprint}). Check the thumbprint against the server\'s (e.g. in its configuration tool), then add it to trusted_server_certificates of this connection — or move the file from {rejected} to {trusted}. Nothing is read until then.',
        { url: endpointUrl, thumbprint: print, rejected: path.join(this.certificates.rootDir, 'rejected'), trusted: path.join(this.certificates.rootDir, 'trusted', 'certs') },
      ),
    );
  }

  private configured(print: string): boolean {
    return this.options.trustedThumbprints.some((t) => normalizeThumbprint(t) === print);
  }

  private readPins(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.pinsFile, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  private pin(pins: Record<string, string>, endpointUrl: string, print: string): void {
    const temporary = `${this.pinsFile}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify({ ...pins, [endpointUrl]: print }, null, 2));
    fs.renameSync(temporary, this.pinsFile);
  }
}
