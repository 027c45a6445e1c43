import { z } from 'zod';
import type { ApiRequest, RawReply, Transport } from './transport.js';

/**
 * The bridge the Electron preload exposes as `window.tributary`: the same API as HTTP, carried over
 * one IPC channel. It resolves to `{ status, body }` where body is the spec envelope.
 */
export interface TributaryBridge {
  request(method: string, path: string, body?: unknown, options?: { headers?: Record<string, string> }): Promise<unknown>;
}

declare global {
  interface Window {
    tributary?: TributaryBridge;
  }
}

const BridgeReplySchema = z.object({ status: z.number().int(), body: z.unknown() });

export function bridgeOf(win: Window): TributaryBridge | undefined {
  const candidate = win.tributary;
  return candidate && typeof candidate.request === 'function' ? candidate : undefined;
}

export function createIpcTransport(bridge: TributaryBridge): Transport {
  return {
    kind: 'ipc',
    async send({ method, path, body, headers }: ApiRequest): Promise<RawReply> {
      const reply = await bridge.request(method, path, body, headers ? { headers } : undefined);
      const parsed = BridgeReplySchema.safeParse(reply);
      // A bridge that hands back the bare envelope is accepted too; the envelope's success decides.
      return parsed.success ? { status: parsed.data.status, body: parsed.data.body } : { status: 200, body: reply };
    },
  };
}
