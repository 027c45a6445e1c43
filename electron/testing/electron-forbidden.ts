// Aliased to 'electron' in vitest.config.ts: the agent core and the API must never import Electron.
throw new Error("'electron' was imported by code that must run headless (agent core, API, shared).");
