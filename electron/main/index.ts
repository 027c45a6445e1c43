/**
 * Desktop composition root (thin on purpose; issue 10 grows it: tray, window state, safeStorage).
 * Hosts the agent core and the API in the main process and serves the console over IPC.
 */
import { BrowserWindow, app, ipcMain } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, defaultDataDirectory } from '../host/host.js';
import { routeIpcRequest } from '../api/ipc-adapter.js';
import { secureWebPreferences } from './window-options.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const consoleIndex = path.join(here, '..', '..', 'renderer', 'index.html');

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const host = await createHost({ dataDirectory: process.env.TRIBUTARY_DATA_DIR ?? defaultDataDirectory() });
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Tributary',
    webPreferences: secureWebPreferences(path.join(here, '..', 'preload', 'index.cjs')),
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  ipcMain.handle('api:request', (event, request: unknown) => {
    if (event.senderFrame?.url && !event.senderFrame.url.startsWith('file://')) throw new Error('refused: unknown sender');
    return routeIpcRequest(host.router, request);
  });
  await window.loadFile(consoleIndex);
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('before-quit', () => void host.close());
}

void main();
