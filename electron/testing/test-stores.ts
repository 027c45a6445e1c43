/** Stores a test opens, closed after each test (afterEach registered by the test file that imports this). */
import { afterEach } from 'vitest';
import { AgentStore } from '../agent/store/agent-store.js';

const stores: AgentStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));

/** An AgentStore on `file`, closed after the test. */
export function openStore(file: string): AgentStore {
  const store = new AgentStore(file);
  stores.push(store);
  return store;
}
