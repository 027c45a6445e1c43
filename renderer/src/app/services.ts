/**
 * Composition root of the console: picks the transport (Electron bridge or HTTP with token), and
 * builds the API client, the auth store and the query client once.
 */
import { QueryClient } from '@tanstack/react-query';
import { ManagedAgentStore, createFleetTransport } from '../api/managed-agent.js';
import { ApiClient, AuthStore, UnauthorizedError, adoptTokenFromAddress, bridgeOf, createHttpTransport, createIpcTransport, readToken, storeToken } from '../api/index.js';

export interface ConsoleServices {
  client: ApiClient;
  auth: AuthStore;
  queryClient: QueryClient;
  adoptToken: (token: string, remember?: boolean) => void;
  managed: ManagedAgentStore;
  /** Switches every page to another agent of the fleet (null: this one). */
  manageAgent: (name: string | null) => void;
}

export function createConsoleServices(win: Window): ConsoleServices {
  const bridge = bridgeOf(win);
  if (!bridge) adoptTokenFromAddress(win);
  const auth = new AuthStore(bridge || readToken(win.sessionStorage, win.localStorage) ? 'ok' : 'missing');
  const managed = new ManagedAgentStore(win.sessionStorage);
  const direct = bridge ? createIpcTransport(bridge) : createHttpTransport(() => readToken(win.sessionStorage, win.localStorage));
  const transport = createFleetTransport(direct, managed);
  const client = new ApiClient(transport, () => auth.set(readToken(win.sessionStorage, win.localStorage) ? 'rejected' : 'missing'));
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        // A refused token will not become valid by asking again; other failures may be transient.
        retry: (count, error) => !(error instanceof UnauthorizedError) && count < 2,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
  const adoptToken = (token: string, remember = false) => {
    storeToken(win.sessionStorage, token, { storage: win.localStorage, keep: remember });
    auth.set('ok');
    void queryClient.resetQueries();
  };
  const manageAgent = (name: string | null) => {
    if (name === managed.get()) return;
    managed.set(name);
    // What was read from the other agent must not be shown as this one's, nor arrive late into the cache.
    void queryClient.cancelQueries().then(() => queryClient.resetQueries());
  };
  return { client, auth, queryClient, adoptToken, managed, manageAgent };
}
