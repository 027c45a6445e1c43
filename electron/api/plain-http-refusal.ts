import net from 'node:net';
import type https from 'node:https';

/** The first byte of a TLS handshake record. */
const TLS_HANDSHAKE = 0x16;
/** A connection that sends nothing is closed after this long (the HTTPS server has its own timeouts). */
const FIRST_BYTE_TIMEOUT_MS = 5_000;

const REFUSAL = JSON.stringify({
  success: false,
  response: {},
  error: { code: 400, text: 'This port speaks HTTPS only: use https:// (plain HTTP is refused, so that tokens never cross the network readable).' },
});

/**
 * A socket server in front of an HTTPS server on the same port: a connection whose first byte opens
 * a TLS handshake is handed to the HTTPS server; anything else (plain HTTP) gets a 400 that says to
 * use https:// and is closed without the request being read further or reaching the API.
 */
export function refusePlainHttp(server: https.Server): net.Server {
  return net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (!first) return socket.destroy();
      socket.unshift(first);
      socket.setTimeout(0);
      if (first[0] === TLS_HANDSHAKE) {
        server.emit('connection', socket);
        return;
      }
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(REFUSAL)}\r\nConnection: close\r\n\r\n${REFUSAL}`);
    });
  });
}
