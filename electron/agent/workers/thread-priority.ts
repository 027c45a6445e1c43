import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The nice value of bulk threads (parsing files, encoding uploads) on Linux. */
export const BULK_THREAD_NICE = 10;

/**
 * Bulk work yields to everything else on the edge PC, this process's API thread (the console, OPC
 * UA and MQTT capture) included: on Linux the calling thread (only) gets nice BULK_THREAD_NICE, so a
 * backfill of a month of files takes the cores only when nothing else wants them. Elsewhere the
 * priority stays as it is (Windows and macOS set it for a whole process, not a thread).
 */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, BULK_THREAD_NICE);
  } catch {
    // Not permitted or not available: run at normal priority.
  }
}
