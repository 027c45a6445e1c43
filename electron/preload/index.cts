// The one bridge the console gets: request(method, path, body) → the API envelope. Nothing else.
import electron = require('electron');
const { contextBridge, ipcRenderer } = electron;

contextBridge.exposeInMainWorld(
  'tributary',
  Object.freeze({
    request: (method: string, path: string, body?: unknown) => ipcRenderer.invoke('api:request', { method, path, body }),
  }),
);
