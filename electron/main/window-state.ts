import fs from 'node:fs';
import path from 'node:path';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState extends Bounds {
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { x: 80, y: 60, width: 1280, height: 820, maximized: false };
const MIN_WIDTH = 800;
const MIN_HEIGHT = 560;

/** The saved window state, or the default when there is none or it is unreadable. */
export function loadWindowState(file: string): WindowState {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<WindowState>;
    const numbers = [saved.x, saved.y, saved.width, saved.height].every((n) => typeof n === 'number' && Number.isFinite(n));
    return numbers ? { ...(saved as WindowState), maximized: saved.maximized === true } : { ...DEFAULT_WINDOW };
  } catch {
    return { ...DEFAULT_WINDOW };
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(state));
}

const overlap = (a: Bounds, b: Bounds) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * Keeps a remembered window on screen: a monitor unplugged since last time must not leave the
 * window out of sight. When less than a quarter of it is visible, it moves to the primary display.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Bounds[]): WindowState {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: DEFAULT_WINDOW.width, height: DEFAULT_WINDOW.height };
  const width = Math.max(MIN_WIDTH, Math.min(state.width, primary.width));
  const height = Math.max(MIN_HEIGHT, Math.min(state.height, primary.height));
  const sized = { ...state, width, height };
  const visible = workAreas.reduce((sum, area) => sum + overlap(sized, area), 0);
  if (visible >= (width * height) / 4) return sized;
  return { ...sized, x: primary.x + Math.round((primary.width - width) / 2), y: primary.y + Math.round((primary.height - height) / 2) };
}
