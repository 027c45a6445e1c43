import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { putMultipart } from './http-upload.js';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that reads each request with fetch's own multipart parser (undici), independent of ours. */
async function listen(handle: (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => void | Promise<void>): Promise<URL> {
  server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    await handle(request, Buffer.concat(chunks), response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/rdp2/sslogs`);
}

const formOf = (request: http.IncomingMessage, body: Buffer) => new Request('http://ingest/', { method: 'PUT', headers: { 'content-type': String(request.headers['content-type']) }, body }).formData();

describe('putMultipart', () => {
  it('delivers the part byte for byte, with its name, file name and headers, and returns the answer', async () => {
    // Bytes that look like multipart framing must not confuse the receiver.
    const body = Buffer.concat([Buffer.from('\r\n------tributary\r\n--\r\n'), crypto.randomBytes(100_000)]);
    let received: { method?: string; keyId?: string; name?: string; bytes?: Buffer } = {};
    const url = await listen(async (request, raw, response) => {
      const form = await formOf(request, raw);
      const part = form.get('sslog') as File;
      received = { method: request.method, keyId: String(request.headers['x-sm-api-key-id']), name: part.name, bytes: Buffer.from(await part.arrayBuffer()) };
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success": true}');
    });
    const answer = await putMultipart(url, { 'X-SM-API-Key-ID': 'plant@acme' }, { name: 'sslog', fileName: 'p.tmp', body }, new AbortController().signal);
    expect(answer).toEqual({ status: 200, text: '{"success": true}' });
    expect(received.method).toBe('PUT');
    expect(received.keyId).toBe('plant@acme');
    expect(received.name).toBe('p.tmp');
    expect(received.bytes!.equals(body)).toBe(true);
  });

  it('sends again on a new connection when the server closed a kept-alive one as it was reused', async () => {
    const requestsBySocket = new Map<unknown, number>();
    let dropped = 0;
    let answered = 0;
    const url = await listen((request, _raw, response) => {
      const seen = (requestsBySocket.get(request.socket) ?? 0) + 1;
      requestsBySocket.set(request.socket, seen);
      if (seen === 2 && dropped === 0) {
        // The server ends the idle connection just as the client reuses it.
        dropped += 1;
        request.socket.destroy();
        return;
      }
      answered += 1;
      response.end('{"success": true}');
    });
    const part = { name: 'sslog', fileName: 'p.tmp', body: Buffer.from('x') };
    for (let i = 0; i < 3; i += 1) expect((await putMultipart(url, {}, part, new AbortController().signal)).status).toBe(200);
    expect(dropped).toBe(1);
    expect(answered).toBe(3);
  });

  it('fails with the network error code when nothing listens, and with an abort when the signal fires', async () => {
    const url = await listen((_request, _raw, _response) => {
      // Never answers.
    });
    const part = { name: 'sslog', fileName: 'p.tmp', body: Buffer.from('x') };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('timeout')), 200);
    await expect(putMultipart(url, {}, part, controller.signal)).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
    const closed = new URL(url);
    server!.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(putMultipart(closed, {}, part, new AbortController().signal)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
