/**
 * HTTPS against the probes of issue 50: a connection that sends one byte of a TLS handshake is
 * dropped within seconds, not held 120 s; a client's thousand unfinished connections are capped
 * (status keeps answering, the agent keeps its file descriptors); only forward-secret AEAD suites
 * are offered on TLS 1.2.
 */
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-host.js';
import { MAX_UNFINISHED_PER_CLIENT } from './connection-gate.js';

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer({ http: { host: '127.0.0.1', port: 0, tls: {} } });
  port = server.host.http!.port;
}, 60_000);
afterAll(async () => {
  await server.close();
});

/** GET /v1/status over TLS; the time it took. */
function status(localAddress = '127.0.0.1'): Promise<{ code: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // localAddress goes on to net.connect (Node's types leave it out of tls.ConnectionOptions).
    const options = { host: '127.0.0.1', port, localAddress, rejectUnauthorized: false } as tls.ConnectionOptions;
    const socket = tls.connect(options, () => {
      socket.write(`GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('end', () => resolve({ code: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), ms: performance.now() - started }));
    socket.on('error', reject);
  });
}

/** A connection that sends the first byte of a TLS handshake and nothing more. */
function oneByte(): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(Buffer.from([0x16]));
      resolve(socket);
    });
    socket.on('error', () => {});
  });
}

const closedWithin = (socket: net.Socket, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe('HTTPS against slow and many handshakes', () => {
  it('drops a connection that sent one byte of a handshake within a few seconds', async () => {
    const socket = await oneByte();
    expect(await closedWithin(socket, 9000)).toBe(true);
  }, 20_000);

  it('caps one client\'s unfinished connections and keeps answering status within a second', async () => {
    const sockets = await Promise.all(Array.from({ length: MAX_UNFINISHED_PER_CLIENT * 3 }, () => oneByte()));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const open = sockets.filter((s) => !s.destroyed);
    expect(open.length).toBeLessThanOrEqual(MAX_UNFINISHED_PER_CLIENT + 1);
    // Another client (another address) is answered at once.
    const other = await status('127.0.0.2');
    expect(other.code).toBe(200);
    expect(other.ms).toBeLessThan(1000);
    // The client's request waits for a place: its unfinished connections are dropped within 5 s.
    const answered = await status().catch(() => undefined);
    if (answered?.code !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect((await status()).code).toBe(200);
    }
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quick = await status();
    expect(quick.code).toBe(200);
    expect(quick.ms).toBeLessThan(1000);
  }, 30_000);

  it('offers only forward-secret AEAD suites on TLS 1.2, and TLS 1.3', async () => {
    const handshake = (options: tls.ConnectionOptions) =>
      new Promise<string>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...options }, () => {
          const cipher = socket.getCipher().name;
          socket.end();
          resolve(cipher);
        });
        socket.on('error', reject);
      });
    await expect(handshake({ maxVersion: 'TLSv1.2', ciphers: 'AES128-SHA:AES256-SHA' })).rejects.toThrow();
    await expect(handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-SHA' })).rejects.toThrow();
    await expect(handshake({ maxVersion: 'TLSv1.2', ciphers: 'AES128-GCM-SHA256' })).rejects.toThrow();
    expect(await handshake({ maxVersion: 'TLSv1.2' })).toMatch(/^ECDHE-(RSA|ECDSA)-(AES\d+-GCM-SHA\d+|CHACHA20-POLY1305)$/);
    expect(await handshake({})).toMatch(/^TLS_(AES_\d+_GCM_SHA\d+|CHACHA20_POLY1305_SHA256)$/);
  }, 20_000);
});
