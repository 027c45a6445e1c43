/**
 * Whether the console may talk to the agent: the token is there, missing, or was refused. A tiny
 * external store so that the API client (outside React) can flip the app to the token screen.
 */
export type AuthState = 'ok' | 'missing' | 'rejected';

export class AuthStore {
  private listeners = new Set<() => void>();

  constructor(private state: AuthState) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): AuthState => this.state;

  set(state: AuthState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
