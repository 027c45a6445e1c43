import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Desktop-only settings, in <data-dir>/desktop.json. */
export const DesktopSettingsSchema = z.object({
  /** Serve the API and console over HTTP too (remote access with the token). Off by default. */
  http: z.object({ enabled: z.boolean().default(false), host: z.string().default('127.0.0.1'), port: z.number().int().min(0).max(65535).default(4900) }).default({ enabled: false, host: '127.0.0.1', port: 4900 }),
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
