/**
 * One multipart/form-data PUT with one file part, over node:http/https with kept-alive connections.
 * What fetch did before, at a third of the CPU: fetch built the body through FormData and Blob
 * copies and cost ~2 ms of the API thread per request (docs/performance.md).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

/** What the server answered: status and body text (the first 64 KiB of it). */
export interface HttpAnswer {
  status: number;
  text: string;
}

export interface FilePart {
  name: string;
  fileName: string;
  body: Buffer;
}

const MAX_ANSWER_BYTES = 64 * 1024;
// One upload at a time per transmit; connections are reused between them (a free one is closed
// after 4 s, before servers' usual 5 s keep-alive timeout ends it under a request).
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4000 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4000 }),
};

/** A boundary that does not occur in the body. */
function boundaryFor(body: Buffer): string {
  for (;;) {
    const boundary = `----tributary${crypto.randomBytes(12).toString('hex')}`;
    if (!body.includes(boundary)) return boundary;
  }
}

/** The request bytes around the part's body: preamble with the part's headers, and the closing line. */
export function multipartFrame(part: FilePart, boundary: string): { head: Buffer; tail: Buffer } {
  const name = part.name.replace(/["\r\n]/g, '_');
  const fileName = part.fileName.replace(/["\r\n]/g, '_');
  return {
    head: Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`, 'latin1'),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
  };
}

function attempt(url: URL, headers: Record<string, string>, part: FilePart, signal: AbortSignal): Promise<HttpAnswer> {
  const boundary = boundaryFor(part.body);
  const { head, tail } = multipartFrame(part, boundary);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'PUT',
        agent: AGENTS[url.protocol as keyof typeof AGENTS],
        signal,
        headers: {
          ...headers,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + part.body.length + tail.length),
          Accept: 'application/json, */*',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', (cause: NodeJS.ErrnoException) => reject(Object.assign(cause, { reusedSocket: request.reusedSocket })));
    request.cork();
    request.write(head);
    request.write(part.body);
    request.end(tail);
  });
}

/**
 * PUTs `part` as multipart/form-data to `url`. Rejects with the network error (its `code`, e.g.
 * ECONNREFUSED) or, after `signal` aborted, with an abort error. A kept-alive connection that the
 * server closed just as it was reused is retried once on a new one (Node's documented pattern for
 * `request.reusedSocket`); should the server have kept the first one, the batch arrives twice with
 * the same record ids, which at-least-once delivery allows.
 */
export async function putMultipart(url: URL, headers: Record<string, string>, part: FilePart, signal: AbortSignal): Promise<HttpAnswer> {
  try {
    return await attempt(url, headers, part, signal);
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException & { reusedSocket?: boolean };
    if (signal.aborted || !error.reusedSocket || (error.code !== 'ECONNRESET' && error.code !== 'EPIPE')) throw cause;
    return attempt(url, headers, part, signal);
  }
}
