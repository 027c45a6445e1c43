import fs from 'node:fs';
import path from 'node:path';
import type { ConsoleServer } from '../fixtures/console-server.js';

/**
 * Drops a press file with one malformed line into the demo folder, as a machine with a glitch
 * would: the demo parser (bad_lines_action "warn") skips the line and raises a warning marker.
 */
export function dropFileWithBadLine(server: ConsoleServer): void {
  const file = path.join(server.dataDirectory, 'demo', 'drop', 'press1_glitch.csv');
  fs.writeFileSync(file, 'time,part_id,cyc_t,force_kN,ok\n2026-01-05 06:00:00,P1,29.1,812.0,1\nthis line, is, broken\n2026-01-05 06:00:30,P2,29.4,815.5,1\n');
}
