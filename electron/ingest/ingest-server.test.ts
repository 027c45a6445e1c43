import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { putMultipart } from '../agent/transmits/remotedatapost/http-upload.js';
import { encodeUpload } from '../agent/transmits/remotedatapost/wire.js';
import { type IngestServer, partOf, startIngestServer } from './ingest-server.js';

const record = (i: number) => ({ asset: 'Press_1', stream_type: 'cycle', timestamp: `2026-03-29T08:00:${String(i % 60).padStart(2, '0')}.000000Z`, capturetime: '2026-03-29T08:01:00.000000Z', record_id: `id-${i}`, fieldvalues: { part: i } });

let ingest: IngestServer | undefined;
afterEach(async () => {
  await ingest?.close();
  ingest = undefined;
});

describe('partOf (the count-only ingest path reads multipart without copies)', () => {
  it('finds the same part bytes as fetch’s multipart parser, whatever the bytes and the other fields', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.tuple(fc.constantFrom('a', 'note', 'sslogx', 'file'), fc.string({ maxLength: 20 })), { maxLength: 3 }), fc.boolean(), async (bytes, others, before) => {
        const form = new FormData();
        if (before) for (const [name, value] of others) form.append(name, value);
        form.append('sslog', new Blob([bytes]), 'p.tmp');
        if (!before) for (const [name, value] of others) form.append(name, new Blob([value]), `${name}.bin`);
        const request = new Request('http://ingest/', { method: 'PUT', body: form });
        const body = Buffer.from(await request.arrayBuffer());
        const found = partOf(request.headers.get('content-type')!, body, 'sslog');
        expect(found && Buffer.from(found).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('finds nothing without the part, or without a boundary', () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="other"; filename="sslog"\r\n\r\nx\r\n--b--\r\n');
    expect(partOf('multipart/form-data; boundary=b', body, 'sslog')).toBeUndefined();
    expect(partOf('application/octet-stream', body, 'sslog')).toBeUndefined();
  });
});

describe('a count-only ingest server (benchmarks)', () => {
  it('counts the records of verified uploads and refuses a tampered or wrongly keyed one', async () => {
    ingest = await startIngestServer({ keys: { plant: 'key-1' }, countOnly: true });
    const url = new URL(`${ingest.url}/v1/rdp2/sslogs`);
    const put = (keyId: string, body: Buffer) => putMultipart(url, { 'X-SM-API-Key-ID': keyId }, { name: 'sslog', fileName: 'p.tmp', body }, new AbortController().signal);
    const upload = encodeUpload(Array.from({ length: 120 }, (_, i) => record(i)), { apiKey: 'key-1', useEncryption: true });
    expect((await put('plant', upload)).status).toBe(200);
    expect(ingest.receivedCount()).toBe(120);
    const tampered = Buffer.from(upload);
    tampered[40] = tampered[40] === 0x41 ? 0x42 : 0x41;
    expect((await put('plant', tampered)).status).toBe(400);
    expect((await put('plant', encodeUpload([record(1)], { apiKey: 'another key', useEncryption: true }))).status).toBe(400);
    expect((await put('nobody', upload)).status).toBe(403);
    expect(ingest.receivedCount()).toBe(120);
  });

  it('stamps when records were first and last counted; a refused upload moves neither', async () => {
    ingest = await startIngestServer({ keys: { plant: 'key-1' }, countOnly: true });
    const url = new URL(`${ingest.url}/v1/rdp2/sslogs`);
    const put = (body: Buffer) => putMultipart(url, { 'X-SM-API-Key-ID': 'plant' }, { name: 'sslog', fileName: 'p.tmp', body }, new AbortController().signal);
    const upload = encodeUpload([record(1), record(2)], { apiKey: 'key-1', useEncryption: true });
    expect(ingest.firstReceivedAt()).toBeUndefined();
    const before = performance.now();
    expect((await put(upload)).status).toBe(200);
    const first = ingest.firstReceivedAt()!;
    expect(first).toBeGreaterThanOrEqual(before);
    expect(ingest.lastReceivedAt()).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await put(upload)).status).toBe(200);
    const last = ingest.lastReceivedAt()!;
    expect(last).toBeGreaterThan(first);
    expect(ingest.firstReceivedAt()).toBe(first);
    expect((await put(Buffer.from('not a token'))).status).toBe(400);
    expect(ingest.lastReceivedAt()).toBe(last);
  });
});
