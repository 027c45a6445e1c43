import type { Session } from '../../../shared/api/tokens.js';
import { DESKTOP_SESSION_NAME } from '../../../shared/api/tokens.js';
import type { Principal } from './token-store.js';

/** Who sent a request and how it came: what the router checks roles against and audits. */
export type Caller = Principal & Omit<Session, 'name' | 'role'>;

/** The desktop app's own window: the local user, who owns the data directory anyway, is admin. */
export const DESKTOP_CALLER: Caller = Object.freeze({ name: DESKTOP_SESSION_NAME, role: 'admin', connection: 'local', encrypted: true, insecure: false });
