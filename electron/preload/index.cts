// The one bridge the console gets: request(method, path, body) → the API envelope. Nothing else.
// A sandboxed preload must be CommonJS, hence require-style import.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
const { contextBridge, ipcRenderer } = electron;

contextBridge.exposeInMainWorld(
  'tributary',
  Object.freeze({
    request: (method: string, path: string, body?: unknown, options?: { headers?: Record<string, string> }) =>
      ipcRenderer.invoke('api:request', { method, path, body, headers: options?.headers }),
  }),
);
