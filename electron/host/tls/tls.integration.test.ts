/**
 * HTTPS of the headless server (`serve --tls`): real TLS handshakes (Node's tls and openssl
 * s_client), the fingerprint of the console line, plain HTTP refused on the port, the certificate
 * reused on the next start, the plant's own certificate, and plain HTTP refused on a non-loopback
 * address unless --allow-insecure-http.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVE_SCRIPT } from '../../testing/serve-process.js';
import { tempDirectory } from '../../testing/test-host.js';

const CONSOLE_LINE = /^Tributary console: (https?):\/\/([^/]+)\/\?token=(\S+)(?: \(certificate SHA-256 ([0-9A-F:]+)\))?$/;
const running: ChildProcess[] = [];
// Each test starts the built server (and makes a 2048-bit key) once or twice: seconds on a busy CI.
vi.setConfig({ testTimeout: 120_000 });

interface Served {
  child: ChildProcess;
  scheme: string;
  port: number;
  token: string;
  fingerprint?: string;
}

function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [SERVE_SCRIPT, '--port', '0', ...args], { env: { ...process.env, TRIBUTARY_API_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const match = CONSOLE_LINE.exec(out.split('\n')[0]!);
      if (!match) return reject(new Error(`unexpected first line: ${out}`));
      resolve({ child, scheme: match[1]!, port: Number(match[2]!.split(':').at(-1)), token: match[3]!, fingerprint: match[4] });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

/** Runs serve expecting it to refuse to start: its exit code and stderr. */
function refusedStart(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [SERVE_SCRIPT, '--port', '0', ...args], { env: { ...process.env, TRIBUTARY_API_TOKEN: '' }, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stderr: result.stderr };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

function handshake(port: number, ca: string, servername: string): Promise<{ authorized: boolean; error?: string; fingerprint256: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername }, () => {
      const peer = socket.getPeerCertificate();
      resolve({ authorized: socket.authorized, error: socket.authorizationError?.message, fingerprint256: peer.fingerprint256 });
      socket.end();
    });
    socket.on('error', reject);
  });
}

function httpsJson(port: number, ca: string, pathname: string, token: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: pathname, ca, servername: 'localhost', headers: { authorization: `Bearer ${token}` } }, (response) => {
        let text = '';
        response.on('data', (d) => (text += d));
        response.on('end', () => resolve({ status: response.statusCode!, json: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

function plainHttp(port: number, pathname: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers: { authorization: `Bearer ${token}` } }, (response) => {
        let text = '';
        response.on('data', (d) => (text += d));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      })
      .on('error', reject);
  });
}

describe('serve --tls', () => {
  it('makes a self-signed certificate, prints its fingerprint, speaks only HTTPS, and reuses it', async () => {
    const dataDirectory = tempDirectory();
    const first = await serve(['--data-dir', dataDirectory, '--tls']);
    expect(first.scheme).toBe('https');
    const certFile = path.join(dataDirectory, 'tls', 'cert.pem');
    const keyFile = path.join(dataDirectory, 'tls', 'key.pem');
    const cert = fs.readFileSync(certFile, 'utf8');
    if (process.platform !== 'win32') expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const x509 = new crypto.X509Certificate(cert);
    expect(x509.subjectAltName).toContain('DNS:localhost');
    expect(x509.subjectAltName).toContain('IP Address:127.0.0.1');
    if (/^[a-z0-9.-]+$/i.test(os.hostname())) expect(x509.subjectAltName).toContain(`DNS:${os.hostname().toLowerCase()}`);
    // The console line's fingerprint is the one openssl prints for the file and for the live server.
    const fromFile = execFileSync('openssl', ['x509', '-in', certFile, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' });
    expect(fromFile.trim()).toMatch(new RegExp(`Fingerprint=${first.fingerprint}$`, 'i'));
    const live = execFileSync('sh', ['-c', `openssl s_client -connect 127.0.0.1:${first.port} -servername localhost </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256`], { encoding: 'utf8' });
    expect(live.trim()).toMatch(new RegExp(`Fingerprint=${first.fingerprint}$`, 'i'));
    // Node's tls trusts it as this agent's certificate for localhost and 127.0.0.1.
    for (const name of ['localhost', '127.0.0.1']) {
      const shake = await handshake(first.port, cert, name);
      expect(shake, name).toMatchObject({ authorized: true, fingerprint256: first.fingerprint });
    }
    // …and not for a name it does not carry.
    await expect(handshake(first.port, cert, 'elsewhere.example')).rejects.toThrow(/altnames/);
    const session = await httpsJson(first.port, cert, '/v1/session', first.token);
    expect(session.json.response).toEqual({ name: 'bootstrap', role: 'admin', connection: 'https', encrypted: true, insecure: false });
    // Plain HTTP on the same port: refused with a pointer to https://, never answered by the API.
    const plain = await plainHttp(first.port, '/v1/status', first.token);
    expect(plain.status).toBe(400);
    expect(plain.text).toContain('HTTPS only');
    expect(plain.text).not.toContain('agent');
    // HTTPS still works after the refusal.
    expect((await httpsJson(first.port, cert, '/v1/status', first.token)).status).toBe(200);
    await stop(first.child);
    const second = await serve(['--data-dir', dataDirectory, '--tls']);
    expect(second.fingerprint).toBe(first.fingerprint);
  });

  it('serves the plant\'s own certificate, and refuses a key that is not its own', async () => {
    const dataDirectory = tempDirectory();
    const own = tempDirectory('tributary-own-cert-');
    const cert = path.join(own, 'plant.crt');
    const key = path.join(own, 'plant.key');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '30', '-subj', '/CN=edge-7.plant.example', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
    const expected = new crypto.X509Certificate(fs.readFileSync(cert)).fingerprint256;
    const served = await serve(['--data-dir', dataDirectory, '--tls-cert', cert, '--tls-key', key]);
    expect(served.scheme).toBe('https');
    expect(served.fingerprint).toBe(expected);
    expect((await handshake(served.port, fs.readFileSync(cert, 'utf8'), 'localhost')).authorized).toBe(true);
    expect(fs.existsSync(path.join(dataDirectory, 'tls'))).toBe(false);
    await stop(served.child);
    const otherKey = path.join(own, 'other.key');
    execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-out', otherKey], { stdio: 'ignore' });
    const refused = refusedStart(['--data-dir', dataDirectory, '--tls-cert', cert, '--tls-key', otherKey]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('is not the private key of the certificate');
    expect(refusedStart(['--data-dir', dataDirectory, '--tls-cert', cert]).stderr).toContain('--tls-cert and --tls-key go together');
  });
});

describe('plain HTTP on a non-loopback address', () => {
  it('refuses to start naming --tls, unless --allow-insecure-http, which the session reports', async () => {
    const dataDirectory = tempDirectory();
    const refused = refusedStart(['--data-dir', dataDirectory, '--host', '0.0.0.0']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--tls');
    expect(refused.stderr).toContain('--allow-insecure-http');
    const insecure = await serve(['--data-dir', dataDirectory, '--host', '0.0.0.0', '--allow-insecure-http']);
    expect(insecure.scheme).toBe('http');
    const response = await fetch(`http://127.0.0.1:${insecure.port}/v1/session`, { headers: { authorization: `Bearer ${insecure.token}` } });
    expect(((await response.json()) as { response: unknown }).response).toMatchObject({ connection: 'http', encrypted: false, insecure: true });
  });
});
