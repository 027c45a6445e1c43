import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';

/** What the HTTPS server needs, and what the console line shows. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** SHA-256 of the certificate as `openssl x509 -fingerprint -sha256` prints it: `AB:CD:…`. */
  fingerprint256: string;
  /** Where it came from: made now, made on an earlier start, or the plant's own files. */
  source: 'generated' | 'reused' | 'files';
  certFile: string;
  keyFile: string;
}

export interface TlsOptions {
  dataDirectory: string;
  /** The --host address: named in the generated certificate when it is a specific address. */
  host: string;
  /** --tls-cert / --tls-key: the plant's own certificate (PEM, chain allowed) and key. */
  certFile?: string;
  keyFile?: string;
  /** Told why a generated certificate was made again. */
  log?: (message: string) => void;
}

/** A certificate, key or both cannot be used: the message says which file and why. */
export class TlsSetupError extends Error {}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);
/** A generated certificate is made again this long before it expires. */
const RENEW_BEFORE_MS = 30 * 86_400_000;
const VALIDITY_DAYS = 825;

/** The names a generated certificate carries: this PC's name, localhost, loopback and the bound address. */
export function certificateNames(host: string): { dns: string[]; ip: string[] } {
  const dns = new Set(['localhost']);
  const ip = new Set(['127.0.0.1', '::1']);
  const hostname = os.hostname().trim().toLowerCase();
  if (hostname && net.isIP(hostname) === 0) dns.add(hostname);
  const bound = host.trim().replace(/^\[|\]$/g, '').toLowerCase();
  if (!WILDCARDS.has(bound)) (net.isIP(bound) === 0 ? dns : ip).add(bound);
  return { dns: [...dns], ip: [...ip] };
}

function readPem(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (cause) {
    throw new TlsSetupError(`The TLS ${what} ${file} cannot be read: ${(cause as Error).message}`);
  }
}

/** Checks that `cert` is a certificate and `key` its private key; answers the first certificate. */
function checkPair(cert: string, key: string, certFile: string, keyFile: string): crypto.X509Certificate {
  let x509: crypto.X509Certificate;
  try {
    x509 = new crypto.X509Certificate(cert);
  } catch (cause) {
    throw new TlsSetupError(`${certFile} is not a PEM certificate: ${(cause as Error).message}`);
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch (cause) {
    throw new TlsSetupError(`${keyFile} is not a PEM private key (an encrypted key is not supported): ${(cause as Error).message}`);
  }
  if (!x509.checkPrivateKey(privateKey)) throw new TlsSetupError(`${keyFile} is not the private key of the certificate ${certFile}.`);
  return x509;
}

/** Why a generated certificate on disk cannot be reused, or undefined when it can. */
function staleReason(x509: crypto.X509Certificate, names: { dns: string[]; ip: string[] }, now: Date): string | undefined {
  if (new Date(x509.validTo).getTime() - now.getTime() < RENEW_BEFORE_MS) return `it expires on ${x509.validTo}`;
  const sans = (x509.subjectAltName ?? '').split(',').map((entry) => entry.trim().toLowerCase());
  const missing = [...names.dns.map((n) => `dns:${n}`), ...names.ip.map((n) => `ip address:${n === '::1' ? '0:0:0:0:0:0:0:1' : n}`)].filter(
    (wanted) => !sans.includes(wanted) && !(wanted === 'ip address:0:0:0:0:0:0:0:1' && sans.includes('ip address:::1')),
  );
  return missing.length > 0 ? `it does not name ${missing.map((m) => m.replace(/^[a-z ]+:/, '')).join(', ')}` : undefined;
}

async function generate(names: { dns: string[]; ip: string[] }): Promise<{ cert: string; key: string }> {
  // node-opcua-crypto is already here for OPC UA and builds X.509 with WebCrypto: no second library,
  // and no openssl binary (absent on Windows PCs).
  const { CertificatePurpose, createSelfSignedCertificate, generateKeyPair, privateKeyToPEM } = await import('node-opcua-crypto');
  const pair = await generateKeyPair(2048);
  const { privPem } = await privateKeyToPEM(pair.privateKey);
  const { cert } = await createSelfSignedCertificate({
    privateKey: pair.privateKey,
    subject: `/CN=Tributary ${names.dns.find((n) => n !== 'localhost') ?? 'localhost'}`,
    dns: names.dns,
    ip: names.ip,
    validity: VALIDITY_DAYS,
    purpose: CertificatePurpose.ForApplication,
  });
  return { cert, key: privPem };
}

/**
 * The HTTPS certificate: the plant's own (--tls-cert / --tls-key), or a self-signed one in
 * `<data-dir>/tls/` made on first start (key 0600) and reused afterwards; made again when it no
 * longer names this PC or the bound address, or expires within 30 days.
 */
export async function loadTlsMaterial(options: TlsOptions, now = new Date()): Promise<TlsMaterial> {
  if (options.certFile || options.keyFile) {
    if (!options.certFile || !options.keyFile) throw new TlsSetupError('--tls-cert and --tls-key go together: give both files (PEM).');
    const cert = readPem(options.certFile, 'certificate');
    const key = readPem(options.keyFile, 'key');
    const x509 = checkPair(cert, key, options.certFile, options.keyFile);
    return { cert, key, fingerprint256: x509.fingerprint256, source: 'files', certFile: options.certFile, keyFile: options.keyFile };
  }
  const folder = path.join(options.dataDirectory, 'tls');
  const certFile = path.join(folder, 'cert.pem');
  const keyFile = path.join(folder, 'key.pem');
  const names = certificateNames(options.host);
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
    const cert = readPem(certFile, 'certificate');
    const key = readPem(keyFile, 'key');
    let reason: string | undefined;
    try {
      const x509 = checkPair(cert, key, certFile, keyFile);
      reason = staleReason(x509, names, now);
      if (!reason) return { cert, key, fingerprint256: x509.fingerprint256, source: 'reused', certFile, keyFile };
    } catch (cause) {
      reason = (cause as Error).message;
    }
    options.log?.(`A new self-signed certificate is made in ${folder}: the one there cannot be used (${reason}).`);
  }
  const { cert, key } = await generate(names);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  // The key first, never readable by others even for a moment; then the certificate.
  const tempKey = `${keyFile}.tmp`;
  fs.rmSync(tempKey, { force: true });
  fs.writeFileSync(tempKey, key, { mode: 0o600 });
  fs.renameSync(tempKey, keyFile);
  fs.writeFileSync(`${certFile}.tmp`, cert, { mode: 0o644 });
  fs.renameSync(`${certFile}.tmp`, certFile);
  return { cert, key, fingerprint256: new crypto.X509Certificate(cert).fingerprint256, source: 'generated', certFile, keyFile };
}
