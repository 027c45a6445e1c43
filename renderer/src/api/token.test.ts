import { describe, expect, it } from 'vitest';
import { readToken, storeToken } from './token.js';

/** A minimal Web Storage: what the browser's session and local storage do for these calls. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() { return items.size; },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('the console token, for this tab or remembered on this PC', () => {
  it('without "remember" lives only as long as the tab (a new tab has none)', () => {
    const tab = memoryStorage();
    const pc = memoryStorage();
    storeToken(tab, ' abc ', { storage: pc, keep: false });
    expect(readToken(tab, pc)).toBe('abc');
    expect(readToken(memoryStorage(), pc)).toBeNull();
  });

  it('with "remember" is found by a new tab after the browser restarts', () => {
    const pc = memoryStorage();
    storeToken(memoryStorage(), 'abc', { storage: pc, keep: true });
    expect(readToken(memoryStorage(), pc)).toBe('abc');
  });

  it('is forgotten on this PC when the next token is entered without "remember"', () => {
    const pc = memoryStorage();
    storeToken(memoryStorage(), 'old', { storage: pc, keep: true });
    storeToken(memoryStorage(), 'new', { storage: pc, keep: false });
    expect(readToken(memoryStorage(), pc)).toBeNull();
  });

  it('prefers the tab’s own token over the remembered one (a link with ?token= wins)', () => {
    const tab = memoryStorage();
    const pc = memoryStorage();
    storeToken(memoryStorage(), 'remembered', { storage: pc, keep: true });
    storeToken(tab, 'from-link');
    expect(readToken(tab, pc)).toBe('from-link');
  });
});
