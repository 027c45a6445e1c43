import type { ApiRequest, RawReply, Transport } from './transport.js';

/** Talks to the headless server over HTTP with `Authorization: Bearer <token>`. */
export function createHttpTransport(getToken: () => string | null): Transport {
  return {
    kind: 'http',
    async send({ method, path, body, headers }: ApiRequest): Promise<RawReply> {
      const token = getToken();
      // No token: answer like the server would, without sending a request that must fail.
      if (!token) return { status: 401, body: { success: false, response: {}, error: { code: 401, text: 'No access token.' } } };
      const response = await fetch(path, {
        method,
        cache: 'no-store',
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed };
    },
  };
}
