import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../testing/test-host.js';
import { checkBind } from '../host/host.js';
import { desktopHttpOptions, loadDesktopSettings } from './desktop-settings.js';
import { isTrustedSender } from './ipc-guard.js';
import { trayMenu, trayPresentation } from './tray-state.js';
import { DEFAULT_WINDOW, fitToDisplays, loadWindowState, saveWindowState } from './window-state.js';
import { secureWebPreferences } from './window-options.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('window state', () => {
  it('remembers size and position, and falls back to defaults when unreadable', () => {
    const file = path.join(tempDirectory(), 'window-state.json');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW);
    saveWindowState(file, { x: 100, y: 50, width: 1400, height: 900, maximized: true });
    expect(loadWindowState(file)).toEqual({ x: 100, y: 50, width: 1400, height: 900, maximized: true });
    fs.writeFileSync(file, '{"x": "left"');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW);
  });

  it('brings a window back on screen when its monitor is gone, and keeps it where it was otherwise', () => {
    const primary = { x: 0, y: 0, width: 1920, height: 1040 };
    const onSecond = { x: 2200, y: 100, width: 1200, height: 800, maximized: false };
    expect(fitToDisplays(onSecond, [primary, { x: 1920, y: 0, width: 1920, height: 1040 }])).toEqual(onSecond);
    const moved = fitToDisplays(onSecond, [primary]);
    expect(moved.x).toBeGreaterThanOrEqual(0);
    expect(moved.x + moved.width).toBeLessThanOrEqual(1920);
    expect(moved.width).toBe(1200);
    expect(fitToDisplays({ ...onSecond, width: 5000, height: 4000, x: 0, y: 0 }, [primary])).toMatchObject({ width: 1920, height: 1040 });
  });
});

describe('tray', () => {
  it('maps the agent state to a colour, a tooltip and the menu', () => {
    expect(trayPresentation('running', { 'receiver:a': { status: 'running' } }).colour).toBe('green');
    const degraded = trayPresentation('running', { 'receiver:a': { status: 'running' }, 'transmit:cloud': { status: 'unknown' } });
    expect(degraded.colour).toBe('amber');
    expect(degraded.tooltip).toContain('transmit:cloud');
    expect(trayPresentation('running', { 'receiver:a': { status: 'running', health: 'degraded' } }).colour).toBe('amber');
    expect(trayPresentation('stopped', {}).colour).toBe('grey');
    expect(trayPresentation('failed', {}).colour).toBe('red');
    const running = trayMenu('running');
    expect(running.find((i) => i.id === 'stop')?.enabled).toBe(true);
    expect(running.find((i) => i.id === 'start')?.enabled).toBe(false);
    expect(trayMenu('stopped').find((i) => i.id === 'start')?.enabled).toBe(true);
    expect(running.map((i) => i.id)).toEqual(['open', 'separator', 'start', 'stop', 'separator', 'quit']);
  });
});

describe('security', () => {
  it('runs the console sandboxed and isolated, without Node', () => {
    const options = secureWebPreferences('/app/preload/index.cjs');
    expect(options).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, nodeIntegrationInWorker: false, webSecurity: true, webviewTag: false, allowRunningInsecureContent: false });
  });

  it('accepts IPC only from the console page in the main frame', () => {
    const index = 'file:///opt/Tributary/resources/app.asar/dist/renderer/index.html';
    expect(isTrustedSender(`${index}#/status`, index, true)).toBe(true);
    expect(isTrustedSender(index, index, false)).toBe(false);
    expect(isTrustedSender('https://evil.example/index.html', index, true)).toBe(false);
    expect(isTrustedSender('file:///tmp/other.html', index, true)).toBe(false);
    expect(isTrustedSender(undefined, index, true)).toBe(false);
  });

  it('has a Content Security Policy in the console page itself (loaded from disk by the desktop app)', () => {
    const html = fs.readFileSync(path.join(ROOT, 'renderer', 'index.html'), 'utf8');
    expect(html).toMatch(/http-equiv="Content-Security-Policy"[\s\S]*default-src 'self'[\s\S]*object-src 'none'/);
  });
});

describe('desktop settings', () => {
  it('keeps the HTTP server off unless asked, and starts at login by default', () => {
    const dir = tempDirectory();
    expect(loadDesktopSettings(dir)).toEqual({ http: { enabled: false, host: '127.0.0.1', port: 4900, tls: false, allowInsecureHttp: false }, startAtLogin: true, allowWrite: [] });
    expect(desktopHttpOptions(loadDesktopSettings(dir), '/console')).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'desktop.json'), JSON.stringify({ http: { enabled: true, host: '0.0.0.0', port: 4911 } }));
    expect(loadDesktopSettings(dir).http).toEqual({ enabled: true, host: '0.0.0.0', port: 4911, tls: false, allowInsecureHttp: false });
  });

  it('offers HTTPS like serve: --tls, the plant\'s own certificate, or plain HTTP only when insisted on', () => {
    const dir = tempDirectory();
    const options = (http: Record<string, unknown>) => {
      fs.writeFileSync(path.join(dir, 'desktop.json'), JSON.stringify({ http: { enabled: true, host: '0.0.0.0', port: 4911, ...http } }));
      return desktopHttpOptions(loadDesktopSettings(dir), '/console');
    };
    // Plain HTTP on a non-loopback address is refused by the same check as serve's, naming --tls.
    expect(() => checkBind(options({})!)).toThrow(/--tls/);
    expect(() => checkBind(options({ allowInsecureHttp: true })!)).not.toThrow();
    expect(options({ tls: true })).toMatchObject({ host: '0.0.0.0', port: 4911, tls: {} });
    expect(() => checkBind(options({ tls: true })!)).not.toThrow();
    expect(options({ tlsCert: '/etc/plant/edge.crt', tlsKey: '/etc/plant/edge.key' })?.tls).toEqual({ certFile: path.resolve('/etc/plant/edge.crt'), keyFile: path.resolve('/etc/plant/edge.key') });
  });

  it('lets the operator allow csv output folders besides the data directory (allowWrite)', () => {
    const dir = tempDirectory();
    fs.writeFileSync(path.join(dir, 'desktop.json'), JSON.stringify({ allowWrite: ['D:\\Exports', '/srv/exports'] }));
    expect(loadDesktopSettings(dir).allowWrite).toEqual(['D:\\Exports', '/srv/exports']);
  });
});

describe('electron-builder.yml', () => {
  it('is valid for electron-builder, by its own loader and schema', async () => {
    const requireFromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
    const { getConfig, validateConfiguration } = requireFromBuilder('app-builder-lib/out/util/config/config') as {
      getConfig: (dir: string) => Promise<Record<string, any>>;
      validateConfiguration: (config: unknown, logger: { isEnabled: boolean; add: () => void }) => Promise<void>;
    };
    const config = await getConfig(ROOT);
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
    expect(config.nsis).toMatchObject({ perMachine: true, deleteAppDataOnUninstall: false, createStartMenuShortcut: true });
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.npmRebuild).toBe(true);
    expect(fs.existsSync(path.join(ROOT, config.icon))).toBe(true);
    await expect(validateConfiguration({ ...config, nsis: { ...config.nsis, oneClik: true } }, { isEnabled: false, add: () => undefined })).rejects.toThrow(/Invalid configuration object/);
  });
});
