import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The console's Content Security Policy: only our own origin; Monaco needs inline styles and
 * workers from our origin. No remote content of any kind: the console works without internet.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The console URL carries ?token=: never send it on as a referrer.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/** Serves the built console; unknown paths get index.html (client-side routes). */
export function serveStatic(request: http.IncomingMessage, response: http.ServerResponse, pathname: string, root: string | undefined): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('Method not allowed');
    return;
  }
  const index = root ? path.join(root, 'index.html') : undefined;
  if (!root || !index || !fs.existsSync(index)) {
    response.writeHead(503, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('The Tributary console is not built. Run "npm run build" (npm run serve does it for you).');
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const candidate = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  const inside = candidate === path.resolve(root) || candidate.startsWith(path.resolve(root) + path.sep);
  let file = index;
  if (inside && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) file = candidate;
  const isAsset = file !== index;
  const stat = fs.statSync(file);
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': stat.size,
    // Vite names assets by content hash: cache them; never cache index.html.
    'Cache-Control': isAsset && file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (request.method === 'HEAD') response.end();
  else {
    const stream = fs.createReadStream(file);
    // The file can go between the look above and the read (a rebuild of the console): that answer
    // is cut short. An 'error' nobody listened to would end the whole agent.
    stream.on('error', () => response.destroy());
    stream.pipe(response);
  }
}
