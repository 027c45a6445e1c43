import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Desktop-only settings, in <data-dir>/desktop.json. */
export const DesktopSettingsSchema = z.object({
  /**
   * Serve the API and console over the network too (remote access with a token). Off by default.
   * As headless: `tls` (HTTPS; `tlsCert`/`tlsKey` for the plant's own certificate, else a
   * self-signed one in <data-dir>/tls/); a non-loopback host without it needs `allowInsecureHttp`.
   */
  http: z
    .object({
      enabled: z.boolean().default(false),
      host: z.string().default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(4900),
      tls: z.boolean().default(false),
      tlsCert: z.string().min(1).optional(),
      tlsKey: z.string().min(1).optional(),
      allowInsecureHttp: z.boolean().default(false),
    })
    .default({ enabled: false, host: '127.0.0.1', port: 4900, tls: false, allowInsecureHttp: false }),
  /** Start Tributary when the user logs in. */
  startAtLogin: z.boolean().default(true),
  /** Folders besides the data directory where csv transmits may write (as --allow-write headless). */
  allowWrite: z.array(z.string().min(1)).default([]),
});
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>;

export function loadDesktopSettings(dataDirectory: string): DesktopSettings {
  const file = path.join(dataDirectory, 'desktop.json');
  try {
    const parsed = DesktopSettingsSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // missing or unreadable: defaults
  }
  return DesktopSettingsSchema.parse({});
}

/** The host's HTTP options from the desktop settings (undefined when remote access is off). */
export function desktopHttpOptions(settings: DesktopSettings, consoleDirectory: string) {
  const { enabled, host, port, tls, tlsCert, tlsKey, allowInsecureHttp } = settings.http;
  if (!enabled) return undefined;
  const files = tlsCert && tlsKey ? { certFile: path.resolve(tlsCert), keyFile: path.resolve(tlsKey) } : {};
  return { host, port, consoleDirectory, allowInsecureHttp, tls: tls || tlsCert ? files : undefined };
}
