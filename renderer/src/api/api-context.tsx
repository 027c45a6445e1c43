import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthState, AuthStore } from './auth-store.js';
import type { ApiClient } from './client.js';
import type { ManagedAgentStore } from './managed-agent.js';

interface ApiContextValue {
  client: ApiClient;
  auth: AuthStore;
  /** Stores a token typed on the token screen (HTTP only) and retries. */
  adoptToken: (token: string, remember?: boolean) => void;
  managed: ManagedAgentStore;
  manageAgent: (name: string | null) => void;
}

const ApiContext = createContext<ApiContextValue | null>(null);

export function ApiProvider({ value, children }: { value: ApiContextValue; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

function useApiContext(): ApiContextValue {
  const value = useContext(ApiContext);
  if (!value) throw new Error('ApiProvider is missing above this component.');
  return value;
}

export function useApi(): ApiClient {
  return useApiContext().client;
}

export function useAuthState(): AuthState {
  const { auth } = useApiContext();
  return useSyncExternalStore(auth.subscribe, auth.getSnapshot);
}

export function useTokenEntry(): (token: string, remember?: boolean) => void {
  return useApiContext().adoptToken;
}

/** The agent every page manages (null: this one), and the switch. */
export function useManagedAgent(): { agent: string | null; manage: (name: string | null) => void } {
  const { managed, manageAgent } = useApiContext();
  const agent = useSyncExternalStore(managed.subscribe, managed.get);
  return { agent, manage: manageAgent };
}
