/**
 * `npm run ingest-server -- [--port 4901] [--key ID=KEY]… [--out records.jsonl] [--no-encryption]`:
 * receives Tributary's uploads on this PC and prints a line per upload.
 */
import { parseArgs } from 'node:util';
import { startIngestServer } from './ingest-server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4901' },
    host: { type: 'string', default: '127.0.0.1' },
    key: { type: 'string', multiple: true, default: ['demo@tributary.local=demo-api-key-not-secret'] },
    out: { type: 'string' },
    'no-encryption': { type: 'boolean', default: false },
  },
});
const keys = Object.fromEntries(values.key!.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const server = await startIngestServer({ port: Number(values.port), host: values.host, keys, outputFile: values.out, encrypted: !values['no-encryption'] });
process.stdout.write(`Tributary ingest server: ${server.url}/v1/rdp2/sslogs (key ids: ${Object.keys(keys).join(', ')})\n`);
let seen = 0;
setInterval(() => {
  for (const upload of server.uploads.slice(seen)) process.stdout.write(`${new Date().toISOString()} ${upload.keyId}: ${upload.records.length} record(s), ${upload.bytes} bytes\n`);
  seen = server.uploads.length;
}, 500);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
