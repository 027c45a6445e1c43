import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PART_NAME, countUpload, decodeUpload } from '../agent/transmits/remotedatapost/wire.js';

export interface IngestOptions {
  port?: number;
  host?: string;
  /** API_key_ID → API_key. An upload with an unknown id is refused with 403. */
  keys: Record<string, string>;
  /** Uploads are Fernet-encrypted (default true). */
  encrypted?: boolean;
  /** Append each received record as a JSON line to this file. */
  outputFile?: string;
  /** Verify and count uploads (documents by their length prefixes, the first one decoded), keep no records (benchmarks). */
  countOnly?: boolean;
  /** Fault injection for tests and trials. */
  faults?: {
    /** Refuse this many uploads with HTTP 503 first. */
    refuseFirst?: number;
    /** Hold this many uploads open without answering first (the agent's timeout must fire). */
    hangFirst?: number;
    /** Answer this status (e.g. 403, 400) or 'no-success' (200 without success) to every upload. */
    answer?: number | 'no-success';
  };
}

export interface ReceivedUpload {
  keyId: string;
  bytes: number;
  records: Record<string, unknown>[];
}

export interface IngestServer {
  url: string;
  port: number;
  uploads: ReceivedUpload[];
  /** Records received so far (also with countOnly). */
  receivedCount(): number;
  /**
   * When records were first and last counted (performance.now() of this process; undefined before
   * any): benchmarks time a drop to its last record without the granularity of their polling.
   */
  firstReceivedAt(): number | undefined;
  lastReceivedAt(): number | undefined;
  /** Every record received, in arrival order (duplicates included). */
  records(): Record<string, unknown>[];
  /** Raw multipart part bodies as received (for independent decoding). */
  rawParts: Buffer[];
  setFaults(faults: IngestOptions['faults']): void;
  /** Uploads held open without an answer so far (faults.hangFirst). */
  held(): number;
  close(): Promise<void>;
}

/** A file part of a multipart/form-data body, read by fetch's own parser (undici): independent of the agent's writer. */
async function formPart(contentType: string, body: Buffer, name: string): Promise<Buffer | undefined> {
  const form = await new Request('http://ingest/', { method: 'PUT', headers: { 'content-type': contentType }, body }).formData();
  const part = form.get(name);
  return part && typeof part !== 'string' ? Buffer.from(await part.arrayBuffer()) : undefined;
}

/**
 * The same without copies (countOnly, for benchmarks): the body of the part named `name`, found
 * by the boundary of `contentType` (RFC 7578), or undefined when there is none.
 */
export function partOf(contentType: string, body: Buffer, name: string): Buffer | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`, 'latin1');
  const partEnd = Buffer.concat([Buffer.from('\r\n', 'latin1'), delimiter]);
  const named = `name="${name}"`;
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const headersStart = at + delimiter.length + 2;
    if (body[at + delimiter.length] === 0x2d /* "--": the last delimiter */) return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart, 'latin1');
    if (headersEnd === -1) return undefined;
    const next = body.indexOf(partEnd, headersEnd + 4);
    if (next === -1) return undefined;
    const headers = body.toString('latin1', headersStart, headersEnd);
    const disposition = /^content-disposition:\s*form-data;(.*)$/im.exec(headers)?.[1] ?? '';
    if (disposition.split(';').some((parameter) => parameter.trim() === named)) return body.subarray(headersEnd + 4, next);
    at = next + 2;
  }
  return undefined;
}

/**
 * A small server speaking the RDP2 upload format (PUT /v1/rdp2/sslogs): it checks the key id,
 * decrypts, gunzips and decodes the BSON records, and answers {"success": true}. For tests and for
 * trying Tributary without a cloud tenant (`npm run ingest-server`).
 */
export async function startIngestServer(options: IngestOptions): Promise<IngestServer> {
  const uploads: ReceivedUpload[] = [];
  const rawParts: Buffer[] = [];
  let faults = { ...options.faults };
  let refused = 0;
  let received = 0;
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  let hung = 0;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.method !== 'PUT' || request.url !== '/v1/rdp2/sslogs') return answer(404, { success: false, error: 'not found' });
    if ((faults.hangFirst ?? 0) > hung) {
      hung += 1;
      hanging.add(response);
      return;
    }
    if ((faults.refuseFirst ?? 0) > refused) {
      refused += 1;
      return answer(503, { success: false, error: 'try later' });
    }
    if (faults.answer === 'no-success') return answer(200, { hello: 'captive portal' });
    if (typeof faults.answer === 'number') return answer(faults.answer, { success: false });
    const keyId = String(request.headers['x-sm-api-key-id'] ?? '');
    const apiKey = options.keys[keyId];
    if (!apiKey) return answer(403, { success: false, error: 'unknown API key id' });
    try {
      const contentType = String(request.headers['content-type']);
      const body = Buffer.concat(chunks);
      const bytes = options.countOnly ? partOf(contentType, body, PART_NAME) : await formPart(contentType, body, PART_NAME);
      if (!bytes) return answer(400, { success: false, error: `no ${PART_NAME} part` });
      if (!options.countOnly) rawParts.push(bytes);
      const encrypted = options.encrypted ?? true;
      const records = options.countOnly ? [] : decodeUpload(bytes, { apiKey, encrypted });
      const count = options.countOnly ? countUpload(bytes, { apiKey, encrypted }) : records.length;
      received += count;
      if (count > 0) {
        lastAt = performance.now();
        firstAt ??= lastAt;
      }
      uploads.push({ keyId, bytes: bytes.length, records });
      if (options.outputFile) fs.appendFileSync(options.outputFile, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      answer(200, { success: true, id: crypto.randomUUID(), records: count });
    } catch (cause) {
      answer(400, { success: false, error: (cause as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    uploads,
    rawParts,
    receivedCount: () => received,
    firstReceivedAt: () => firstAt,
    lastReceivedAt: () => lastAt,
    records: () => uploads.flatMap((u) => u.records),
    held: () => hanging.size,
    setFaults: (next) => {
      faults = { ...next };
      refused = 0;
      hung = 0;
    },
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
