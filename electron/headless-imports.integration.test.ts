/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';

/**
 * The agent core, the API and shared/ must run without Electron. vitest.config.ts aliases
 * 'electron' to a module that throws, so importing every module here proves none of them needs it.
 */
const modules = import.meta.glob(['./agent/**/*.ts', './api/**/*.ts', './host/**/*.ts', '../shared/**/*.ts', '!**/*.test.ts']);

describe('headless code', () => {
  it('imports every agent, API, host and shared module without Electron', async () => {
    const names = Object.keys(modules);
    expect(names.length).toBeGreaterThan(20);
    for (const [name, load] of Object.entries(modules)) await expect(load(), name).resolves.toBeDefined();
  });

  it('really forbids electron (the alias is in place)', async () => {
    await expect(import('electron')).rejects.toThrow(/must run headless/);
  });
});
