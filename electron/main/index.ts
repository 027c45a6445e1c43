/**
 * Desktop composition root. Hosts the agent core and the API in the main process, serves the
 * console over IPC, keeps collecting with the window closed (tray), and shuts down cleanly.
 * Its logic lives in plain modules next to it (window state, tray state, IPC guard, settings), which
 * the tests run under Node; this file only wires them to Electron.
 */
import { BrowserWindow, Menu, Tray, app, dialog, ipcMain, nativeImage, safeStorage, screen } from 'electron';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentStatus } from '../../shared/api/resources.js';
import { routeIpcRequest } from '../api/ipc-adapter.js';
import { type Host, createHost, defaultDataDirectory } from '../host/host.js';
import type { SecretCodec } from '../agent/index.js';
import { desktopHttpOptions, loadDesktopSettings } from './desktop-settings.js';
import { isTrustedSender } from './ipc-guard.js';
import { trayMenu, trayPresentation } from './tray-state.js';
import { fitToDisplays, loadWindowState, saveWindowState } from './window-state.js';
import { secureWebPreferences } from './window-options.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const consoleIndex = path.join(here, '..', '..', 'renderer', 'index.html');
const resources = app.isPackaged ? process.resourcesPath : path.join(here, '..', '..', '..', 'resources');

let host: Host | undefined;
let window: BrowserWindow | undefined;
let tray: Tray | undefined;
let quitting = false;

/** Secrets at rest through the OS keychain, when the OS offers it. */
function safeStorageCodec(): SecretCodec | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  return { encrypt: (plain) => safeStorage.encryptString(plain), decrypt: (cipher) => safeStorage.decryptString(cipher) };
}

function openWindow(dataDirectory: string): void {
  if (window) {
    window.show();
    window.focus();
    return;
  }
  const stateFile = path.join(dataDirectory, 'window-state.json');
  const state = fitToDisplays(loadWindowState(stateFile), screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...state,
    title: 'Tributary',
    icon: path.join(resources, 'icon.png'),
    show: false,
    webPreferences: secureWebPreferences(path.join(here, '..', 'preload', 'index.cjs')),
  });
  if (state.maximized) win.maximize();
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  win.on('close', (event) => {
    saveWindowState(stateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() });
    if (!quitting) {
      // Closing the window does not stop data collection: the agent keeps running in the tray.
      event.preventDefault();
      win.hide();
    }
  });
  win.on('closed', () => (window = undefined));
  void win.loadFile(consoleIndex);
  window = win;
}

function refreshTray(): void {
  if (!tray || !host) return;
  const status = host.runtime.status().agent;
  const look = trayPresentation(status.status, status.services);
  tray.setImage(nativeImage.createFromPath(path.join(resources, `tray-${look.colour}.png`)));
  tray.setToolTip(look.tooltip);
  const act = (id: string) => {
    if (id === 'open') openWindow(host!.runtime.dataDirectory);
    if (id === 'start') void host!.runtime.start().then(refreshTray);
    if (id === 'stop') void host!.runtime.stop().then(refreshTray);
    if (id === 'quit') app.quit();
  };
  tray.setContextMenu(
    Menu.buildFromTemplate(
      trayMenu(status.status as AgentStatus).map((item) =>
        item.id === 'separator' ? { type: 'separator' as const } : { label: item.label, enabled: item.enabled, click: () => act(item.id) },
      ),
    ),
  );
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  // Files the agent creates are for the user (and group) only: they hold plant data and credentials.
  if (process.platform !== 'win32') process.umask(0o027);
  const dataDirectory = process.env.TRIBUTARY_DATA_DIR ?? defaultDataDirectory();
  const settings = loadDesktopSettings(dataDirectory);
  app.setLoginItemSettings({ openAtLogin: settings.startAtLogin });
  host = await createHost({
    logMachine: true,
    dataDirectory,
    secretCodec: safeStorageCodec(),
    allowWrite: settings.allowWrite.map((folder) => path.resolve(folder)),
    http: desktopHttpOptions(settings, path.dirname(consoleIndex)),
  });
  const consoleUrl = pathToFileURL(consoleIndex).href;
  ipcMain.handle('api:request', (event, request: unknown) => {
    if (!isTrustedSender(event.senderFrame?.url, consoleUrl, event.senderFrame === event.sender.mainFrame)) throw new Error('refused: the request did not come from the Tributary console');
    return routeIpcRequest(host!.router, request);
  });
  tray = new Tray(nativeImage.createFromPath(path.join(resources, 'tray-grey.png')));
  tray.on('click', () => openWindow(dataDirectory));
  refreshTray();
  setInterval(refreshTray, 5000).unref();
  openWindow(dataDirectory);
  app.on('second-instance', () => openWindow(dataDirectory));
  app.on('window-all-closed', () => {
    // Stay alive in the tray.
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    // Flush and close the agent (outbox, progress, logs) before the process ends.
    void host!.close().finally(() => app.exit(0));
  });
}

main().catch((cause: Error) => {
  // A setting that cannot work (plain HTTP on the network without TLS, a certificate that does not
  // fit its key) is said in words, not as a silent exit.
  dialog.showErrorBox('Tributary could not start', cause.message);
  app.exit(1);
});
